// node --test action/resolve.test.mjs (also run by `go test ./cmd/gauntlet`, TestActionVersionResolution)
import assert from "node:assert/strict";
import { test } from "node:test";
import { needs, request, resolve } from "./resolve.mjs";

// Newest first, as GitHub lists them, with the traps: a v2 beside v1, v1.10 beside v1.9, a
// pre-release and a draft newer than the newest release, and a tag that is no version.
const releases = [
  { tag_name: "v2.0.0-rc.1", prerelease: true, draft: false },
  { tag_name: "v1.11.0", prerelease: false, draft: true },
  { tag_name: "v2.0.0", prerelease: false, draft: false },
  { tag_name: "v1.10.2", prerelease: false, draft: false },
  { tag_name: "v1.10.1", prerelease: false, draft: false },
  { tag_name: "v1.9.7", prerelease: false, draft: false },
  { tag_name: "v1.2.3", prerelease: false, draft: false },
  { tag_name: "v1.2.10", prerelease: false, draft: false },
  { tag_name: "v10.0.0-beta", prerelease: true, draft: false },
  { tag_name: "nightly", prerelease: false, draft: false },
  { tag_name: "v0.9.0", prerelease: false, draft: false },
];

const at = (ref, version = "") => resolve(request({ ref, version }), releases);

test("a major tag installs the newest release of that major, never the next major", () => {
  assert.deepEqual(at("v1"), { mode: "release", tag: "v1.10.2", version: "1.10.2" });
  assert.deepEqual(at("v2"), { mode: "release", tag: "v2.0.0", version: "2.0.0" });
  assert.deepEqual(at("v0"), { mode: "release", tag: "v0.9.0", version: "0.9.0" });
});

test("a minor tag installs the newest patch of that minor", () => {
  assert.deepEqual(at("v1.2"), { mode: "release", tag: "v1.2.10", version: "1.2.10" });
  assert.deepEqual(at("v1.10"), { mode: "release", tag: "v1.10.2", version: "1.10.2" });
  assert.deepEqual(at("v1.9"), { mode: "release", tag: "v1.9.7", version: "1.9.7" });
});

test("an exact tag installs exactly that release, without asking the API", () => {
  assert.deepEqual(at("v1.2.3"), { mode: "release", tag: "v1.2.3", version: "1.2.3" });
  assert.deepEqual(at("v2.0.0-rc.1"), { mode: "release", tag: "v2.0.0-rc.1", version: "2.0.0-rc.1" });
  assert.deepEqual(needs(request({ ref: "v1.2.3" })), { releases: false, tags: false });
});

test("main, another branch, or no ref builds from the action's checkout", () => {
  for (const ref of ["main", "feature/x", "refs/heads/main", ""]) {
    assert.deepEqual(at(ref), { mode: "source" }, ref);
  }
  assert.deepEqual(resolve(request({ ref: "v1", fromSource: true }), releases), { mode: "source" });
  assert.deepEqual(at("v1", "source"), { mode: "source" });
});

test("the version input wins over the ref, with or without the v", () => {
  assert.deepEqual(at("main", "v1.9"), { mode: "release", tag: "v1.9.7", version: "1.9.7" });
  assert.deepEqual(at("v2", "1"), { mode: "release", tag: "v1.10.2", version: "1.10.2" });
  assert.deepEqual(at("v1", "1.2.3"), { mode: "release", tag: "v1.2.3", version: "1.2.3" });
  assert.deepEqual(at("main", "latest"), { mode: "release", tag: "v2.0.0", version: "2.0.0" });
});

test("nothing matching is an error, never another version", () => {
  assert.throws(() => at("v3"), /no published release matches v3/);
  assert.throws(() => at("v1.3"), /no published release matches v1.3/);
  assert.throws(() => at("main", "stable"), /version must be latest, source, or a release/);
  assert.throws(() => at("main", "v2-rc.1"), /pre-release must be named in full/);
  assert.throws(() => resolve(request({ ref: "v1" }), []), /no published release/);
});

test("a commit SHA pin installs the release tagged at that commit", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const tags = [
    { name: "v1", commit: { sha } },
    { name: "v1.10", commit: { sha } },
    { name: "v1.10.2", commit: { sha } },
    { name: "v1.10.1", commit: { sha: "f".repeat(40) } },
  ];
  assert.deepEqual(resolve(request({ ref: sha }), releases, tags), { mode: "release", tag: "v1.10.2", version: "1.10.2" });
  assert.deepEqual(resolve(request({ ref: "e".repeat(40) }), releases, tags), { mode: "source" });
  assert.deepEqual(needs(request({ ref: sha })), { releases: true, tags: true });
});
