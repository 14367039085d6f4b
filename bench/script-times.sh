#!/usr/bin/env bash
# A testscript's time before and after a change to it, alternating so that both meet the same
# load on a shared machine: bench/script-times.sh NAME BEFORE.txtar AFTER.txtar [RUNS]
# The test binary is built once (go test -c) from a copy of this tree, and each run puts BEFORE
# or AFTER in place of cmd/gauntlet/testdata/script/NAME.txtar in that copy; the figure is the
# "--- PASS" line's time. Take BEFORE from git: git show REV:cmd/gauntlet/testdata/script/NAME.txtar
set -euo pipefail
name=$1 before=$(realpath "$2") after=$(realpath "$3") runs=${4:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" ls-files -z | (cd "$root" && xargs -0 cp --parents -t "$work")
(cd "$work/cmd/gauntlet" && go test -c -o "$work/gauntlet.test" .)
cd "$work/cmd/gauntlet"
for i in $(seq "$runs"); do
	for v in before after; do
		if [ $v = before ]; then cp "$before" "testdata/script/$name.txtar"; else cp "$after" "testdata/script/$name.txtar"; fi
		load=$(cut -d' ' -f1 /proc/loadavg)
		line=$("$work/gauntlet.test" -test.run "TestScripts/$name\$" -test.count=1 -test.v 2>&1 |
			grep -E "^ +--- (PASS|FAIL): TestScripts/$name " || echo "no result")
		echo "$i $name $v load=$load ${line#"${line%%[![:space:]]*}"}"
	done
done
