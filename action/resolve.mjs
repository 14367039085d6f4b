// Decides which gauntlet the Action installs, from its `version` input or the ref it is used at:
//
//   @v1, version: v1          the newest release 1.x.y  (never a 2.x, never a pre-release)
//   @v1.2, version: v1.2      the newest release 1.2.y
//   @v1.2.3, version: 1.2.3   exactly v1.2.3 (a pre-release too, when named)
//   version: latest           the newest release
//   @<commit SHA>             the release tagged at that commit, else as @main
//   @main, any other ref, version: source, from-source: true
//                             built from the Action's own checkout (needs Go): the action.yml at
//                             a branch may pass flags no release has yet
//
// Run by action.yml with node (every GitHub-hosted runner has it); prints mode=release|source,
// tag=, version= for $GITHUB_OUTPUT. resolve() is pure and tested by resolve.test.mjs.

import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

const versionRef = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?$/;
const releaseTag = /^v(\d+)\.(\d+)\.(\d+)$/;
const commitSHA = /^[0-9a-f]{40}$/;

// request is what was asked for: the version input when set, else the action's ref.
export function request({ version = "", fromSource = false, ref = "" }) {
  if (fromSource) return { kind: "source" };
  const asked = version.trim() || ref.trim();
  if (asked === "" || asked === "source") return { kind: "source" };
  if (asked === "latest") return { kind: "latest" };
  if (commitSHA.test(asked)) return { kind: "commit", sha: asked };
  const m = versionRef.exec(asked);
  if (!m) {
    // A branch (main) or another ref: the action's own code, built.
    if (version.trim()) {
      throw new Error(`version must be latest, source, or a release such as v1, v1.2 or v1.2.3; got ${JSON.stringify(version)}`);
    }
    return { kind: "source" };
  }
  const [, major, minor, patch, pre] = m;
  if (pre && patch === undefined) {
    throw new Error(`${asked}: a pre-release must be named in full, such as v1.3.0-rc.1`);
  }
  if (patch !== undefined) {
    return { kind: "exact", tag: `v${major}.${minor}.${patch}${pre || ""}` };
  }
  if (minor !== undefined) return { kind: "minor", major: Number(major), minor: Number(minor) };
  return { kind: "major", major: Number(major) };
}

// needs says which lists resolve() needs for the request: the releases, the tags, or none.
export function needs(req) {
  return { releases: ["latest", "major", "minor", "commit"].includes(req.kind), tags: req.kind === "commit" };
}

// resolve picks the gauntlet to install. releases are GitHub's release objects ({tag_name,
// draft, prerelease}); tags are {name, commit: {sha}}. Returns {mode: "source"} or
// {mode: "release", tag, version}.
export function resolve(req, releases = [], tags = []) {
  const release = (tag) => ({ mode: "release", tag, version: tag.replace(/^v/, "") });
  switch (req.kind) {
    case "source":
      return { mode: "source" };
    case "exact":
      return release(req.tag);
    case "commit": {
      // Pinned by SHA (the usual hardening): the release tagged at that commit, if any.
      const published = new Set(stable(releases).map((r) => r.tag));
      const tagged = tags
        .filter((t) => t.commit && t.commit.sha === req.sha && published.has(t.name))
        .map((t) => parse(t.name))
        .sort(newestFirst);
      return tagged.length > 0 ? release(tagged[0].tag) : { mode: "source" };
    }
  }
  const candidates = stable(releases).filter(
    (r) =>
      req.kind === "latest" ||
      (r.major === req.major && (req.kind === "major" || r.minor === req.minor)),
  );
  if (candidates.length === 0) {
    const asked = req.kind === "latest" ? "any release" : req.kind === "major" ? `v${req.major}` : `v${req.major}.${req.minor}`;
    throw new Error(`no published release matches ${asked}`);
  }
  return release(candidates.sort(newestFirst)[0].tag);
}

function parse(tag) {
  const m = releaseTag.exec(tag);
  return m && { tag, major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

// stable keeps the published releases with a plain vX.Y.Z tag: no drafts, no pre-releases.
function stable(releases) {
  return releases
    .filter((r) => !r.draft && !r.prerelease)
    .map((r) => parse(r.tag_name))
    .filter(Boolean);
}

function newestFirst(a, b) {
  return b.major - a.major || b.minor - a.minor || b.patch - a.patch;
}

// list reads every page of a GitHub API list, up to a bound.
async function list(url, token) {
  const out = [];
  for (let page = 1; page <= 10; page++) {
    const res = await fetch(`${url}?per_page=100&page=${page}`, {
      headers: {
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
    const items = await res.json();
    out.push(...items);
    if (items.length < 100) break;
  }
  return out;
}

async function main() {
  const env = process.env;
  const req = request({ version: env.INPUT_VERSION || "", fromSource: env.INPUT_FROM_SOURCE === "true", ref: env.ACTION_REF || "" });
  const api = `${env.GITHUB_API_URL || "https://api.github.com"}/repos/${env.ACTION_REPO || "gauntlet-dev/gauntlet"}`;
  const want = needs(req);
  const releases = want.releases ? await list(`${api}/releases`, env.GITHUB_TOKEN) : [];
  const tags = want.tags ? await list(`${api}/tags`, env.GITHUB_TOKEN) : [];
  const got = resolve(req, releases, tags);
  console.log(`mode=${got.mode}`);
  console.log(`tag=${got.tag || ""}`);
  console.log(`version=${got.version || ""}`);
}

// Run as a program (not imported by the tests).
if (process.argv[1] && fileURLToPath(import.meta.url) === resolvePath(process.argv[1])) {
  main().catch((err) => {
    console.error(`::error title=gauntlet::cannot resolve the version to install: ${err.message}`);
    process.exit(1);
  });
}
