#!/usr/bin/env bash
# make hosts-e2e: installs the pinned host CLIs (versions.txt) from npm into a temporary prefix
# and drives each against a fake model server on 127.0.0.1 (fakemodel), checking gauntlet's stop
# hook and doctor beside the host's own behaviour. Skipped, saying so, when npm or its registry
# cannot be reached. Nothing is installed outside the prefix, and HOME is a temporary folder.
# Arguments are passed to go test (-run PATTERN), and make passes HOSTS_E2E_RUN as -run.
set -uo pipefail
cd "$(dirname "$0")/../.."
here=internal/hostse2e
if ! command -v npm >/dev/null 2>&1; then
  echo "hosts-e2e: skipped: npm is not installed"
  exit 0
fi
first=$(grep -v '^#' "$here/versions.txt" | grep . | head -1)
if ! timeout 60 npm view "$first" version >/dev/null 2>&1; then
  echo "hosts-e2e: skipped: the npm registry cannot be reached"
  exit 0
fi
if [ -n "${GAUNTLET_E2E_PREFIX:-}" ]; then
  prefix=$GAUNTLET_E2E_PREFIX # kept: a developer's install, reused between runs
else
  prefix=$(mktemp -d /tmp/gauntlet-hosts-e2e.XXXXXX)
  trap 'rm -rf "$prefix"' EXIT
fi
# A package built for one platform (Droid's native binary, @factory/cli-linux-x64) is installed
# only there: elsewhere its tests skip, saying what is not installed, and the other hosts still run.
platform="$(uname -s | tr 'A-Z' 'a-z')-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"
mapfile -t pkgs < <(grep -v '^#' "$here/versions.txt" | grep . | awk -v p="$platform" '
  /-(linux|darwin|win32)-(x64|arm64)@/ && index($0, "-" p "@") == 0 { next } { print }')
echo "hosts-e2e: installing ${pkgs[*]} into $prefix"
# --ignore-scripts: the CLIs' own postinstall steps only link the native binaries the test runs
# directly; nothing of theirs runs at install time.
if ! timeout 900 npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts "${pkgs[@]}" >"$prefix/npm-install.log" 2>&1; then
  # The registry answered but the install did not finish (a package too big for a slow link, a
  # mirror missing a tarball): the environment's failure, not a regression, so it is a skip.
  echo "hosts-e2e: skipped: npm install failed:"
  tail -20 "$prefix/npm-install.log"
  exit 0
fi
# Arguments go to go test: `run.sh -run 'Gemini|Codex'` drives only those hosts' tests.
GAUNTLET_E2E_PREFIX="$prefix" go test -tags hostse2e -count=1 -v -timeout 45m "$@" "./$here/..."
