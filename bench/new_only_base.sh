#!/usr/bin/env bash
# The cost of new_only against the base, on a copy of this repository: `go vet ./internal/...`
# with new_only, after a change of termtext.Count's signature that breaks unchanged callers.
# Prints the wall time of: the gate without new_only; the first run with new_only (the gate runs
# at the base too, in a worktree at a place new to the go command's build cache, which is keyed
# by path: a cold build); the same after `gauntlet clean` (a new base run, now at a place the
# build cache knows); and the next run on the same base (the base's findings are read back).
# Usage: bench/new_only_base.sh        (from the repository root; needs go and git)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
go build -o bin/gauntlet ./cmd/gauntlet
go build -tags bench -o bin/measure ./bench/measure
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q --local "$root" "$work/repo"
cd "$work/repo"
git checkout -q -B main
cat > .gauntlet.yml <<'YML'
version: 1
base: main
gates:
  vet:
    run: go vet ./internal/...
    format: vet
    new_only: true
YML
git add .gauntlet.yml
git -c user.name=bench -c user.email=bench@example.com commit -qm bench
git checkout -q -b change
sed -i 's/^func Count(n int, noun string) string {/func Count(n int, noun string, _ bool) string {/' internal/termtext/termtext.go

wall() { "$root/bin/measure" "$@" 2>/dev/null | awk '{print $1}'; }
sed -i 's/new_only: true/new_only: false/' .gauntlet.yml
"$root/bin/gauntlet" run --color never >/dev/null 2>&1 || true # warm the build cache
echo "without new_only:                 $(wall "$root/bin/gauntlet" run --color never) s"
sed -i 's/new_only: false/new_only: true/' .gauntlet.yml
echo "new_only, the first base run:     $(wall "$root/bin/gauntlet" run --color never) s"
"$root/bin/gauntlet" clean >/dev/null
echo "new_only, a base run after clean: $(wall "$root/bin/gauntlet" run --color never) s"
echo "new_only, the base remembered:    $(wall "$root/bin/gauntlet" run --color never) s"
