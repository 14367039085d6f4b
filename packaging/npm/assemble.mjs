#!/usr/bin/env node
// Assembles gauntlet's npm packages from a goreleaser dist/ directory and packs them:
//
//   node packaging/npm/assemble.mjs [--dist dist] [--out dist/npm] [--no-pack]
//
// One package per platform (@gauntlet-dev/gauntlet-OS-CPU, with npm's "os" and "cpu" fields and
// the binary in bin/), and the main package @gauntlet-dev/gauntlet, whose optionalDependencies
// name them all at the same version and whose bin/gauntlet.js runs the one npm installed. That
// is how esbuild and lefthook ship: no install script, no download at install time.
//
// The binaries and the version are read from goreleaser's own records, dist/artifacts.json and
// dist/metadata.json, so the packages carry exactly what the release built.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const scope = "@gauntlet-dev";
const main = `${scope}/gauntlet`;

// goreleaser's GOOS/GOARCH to npm's process.platform/process.arch.
const osNames = { linux: "linux", darwin: "darwin", windows: "win32" };
const cpuNames = { amd64: "x64", arm64: "arm64" };

function parseArgs(argv) {
  const opts = { dist: "dist", out: "", pack: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--dist") opts.dist = argv[++i];
    else if (a === "--out") opts.out = argv[++i];
    else if (a === "--no-pack") opts.pack = false;
    else fail(`unknown argument ${a} (usage: assemble.mjs [--dist DIR] [--out DIR] [--no-pack])`);
  }
  opts.dist = resolve(opts.dist);
  opts.out = resolve(opts.out || join(opts.dist, "npm"));
  return opts;
}

function fail(msg) {
  process.stderr.write(`assemble: ${msg}\n`);
  process.exit(1);
}

function readJSON(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    fail(`${path}: ${err.message}`);
  }
}

function writeJSON(path, value) {
  writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
}

// The version npm gets: the release's, without a "v" (npm versions are semver, 1.2.3).
function releaseVersion(dist) {
  const meta = readJSON(join(dist, "metadata.json"));
  const v = String(meta.version || "").replace(/^v/, "");
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)) {
    fail(`${join(dist, "metadata.json")}: version ${JSON.stringify(meta.version)} is not semver`);
  }
  return v;
}

// The gauntlet binaries goreleaser built, one per platform npm knows.
function binaries(dist) {
  const artifacts = readJSON(join(dist, "artifacts.json"));
  const found = new Map();
  for (const a of artifacts) {
    if (a.type !== "Binary" || (a.extra && a.extra.ID && a.extra.ID !== "gauntlet")) continue;
    const os = osNames[a.goos];
    const cpu = cpuNames[a.goarch];
    if (!os || !cpu) continue;
    // artifacts.json paths are relative to where goreleaser ran: the repository root.
    found.set(`${os}-${cpu}`, { os, cpu, path: resolve(dirname(dist), a.path) });
  }
  if (found.size === 0) fail(`${join(dist, "artifacts.json")} lists no gauntlet binary`);
  return [...found.values()].sort((x, y) => `${x.os}-${x.cpu}`.localeCompare(`${y.os}-${y.cpu}`));
}

function platformPackage(out, bin, version, common) {
  const name = `${main}-${bin.os}-${bin.cpu}`;
  const dir = join(out, `gauntlet-${bin.os}-${bin.cpu}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  const exe = bin.os === "win32" ? "gauntlet.exe" : "gauntlet";
  copyFileSync(bin.path, join(dir, "bin", exe));
  chmodSync(join(dir, "bin", exe), 0o755);
  copyFileSync(join(repo, "LICENSE"), join(dir, "LICENSE"));
  writeFileSync(
    join(dir, "README.md"),
    `# ${name}\n\nThe gauntlet binary for ${bin.os}/${bin.cpu}, installed by ${main} as an optional dependency.\n` +
      `Install ${main} instead: https://github.com/gauntlet-dev/gauntlet\n`,
  );
  writeJSON(join(dir, "package.json"), {
    name,
    version,
    description: `The gauntlet binary for ${bin.os}/${bin.cpu} (installed by ${main})`,
    license: common.license,
    homepage: common.homepage,
    repository: common.repository,
    os: [bin.os],
    cpu: [bin.cpu],
    files: [`bin/${exe}`, "README.md", "LICENSE"],
    // Yarn PnP would otherwise keep the binary inside a zip, where it cannot be executed.
    preferUnplugged: true,
  });
  return { name, dir };
}

function mainPackage(out, platforms, version) {
  const template = join(here, "template");
  const dir = join(out, "gauntlet");
  mkdirSync(join(dir, "bin"), { recursive: true });
  const pkg = readJSON(join(template, "package.json"));
  pkg.version = version;
  pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [p.name, version]));
  writeJSON(join(dir, "package.json"), pkg);
  copyFileSync(join(template, "bin", "gauntlet.js"), join(dir, "bin", "gauntlet.js"));
  chmodSync(join(dir, "bin", "gauntlet.js"), 0o755);
  copyFileSync(join(template, "README.md"), join(dir, "README.md"));
  copyFileSync(join(repo, "LICENSE"), join(dir, "LICENSE"));
  return { name: pkg.name, dir, common: pkg };
}

function pack(dir, dest) {
  // npm pack only reads the directory: no registry, no network.
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], { cwd: dir, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  return join(dest, name);
}

const opts = parseArgs(process.argv.slice(2));
const version = releaseVersion(opts.dist);
rmSync(opts.out, { recursive: true, force: true });
mkdirSync(opts.out, { recursive: true });

const template = readJSON(join(here, "template", "package.json"));
const platforms = binaries(opts.dist).map((b) => platformPackage(opts.out, b, version, template));
const packages = [...platforms, mainPackage(opts.out, platforms, version)];
for (const p of packages) {
  if (opts.pack) {
    console.log(pack(p.dir, opts.out));
  } else {
    console.log(p.dir);
  }
}
