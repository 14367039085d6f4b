#!/usr/bin/env node
// gauntlet's npm launcher: runs the gauntlet binary that npm installed with this package, as the
// optional dependency for this platform (@gauntlet-dev/gauntlet-OS-CPU). Nothing is downloaded
// at install time; npm picks the one dependency whose os and cpu match.
"use strict";

const { spawn } = require("node:child_process");

const exe = process.platform === "win32" ? "gauntlet.exe" : "gauntlet";
const pkg = `@gauntlet-dev/gauntlet-${process.platform}-${process.arch}`;

let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  process.stderr.write(
    `gauntlet: no binary for ${process.platform}/${process.arch}: the package ${pkg} is not installed.\n` +
      "npm installs it as an optional dependency: reinstall without --omit=optional (or --no-optional),\n" +
      "or download a release from https://github.com/gauntlet-dev/gauntlet/releases\n",
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// A terminal's Ctrl-C reaches gauntlet itself (the same process group): forwarding it would
// count as a second interrupt, which kills the gates at once. A signal sent to this process
// alone (a host ending its hook, a supervisor) is passed on, so that gauntlet stops its gates.
process.on("SIGINT", () => {});
for (const sig of ["SIGTERM", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}

child.on("error", (err) => {
  process.stderr.write(`gauntlet: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so that whoever started us sees what gauntlet died of.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
