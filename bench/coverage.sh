#!/usr/bin/env bash
# The cost of coverage on by default, on a real Go project: a stop whose plain `go test ./...`
# gate is counted and covered (no coverage: key) against the same stop with `coverage: "off"`
# (counted only). Two copies of the project, the base's census and coverage stored by a first
# stop; then alternating stops, each after its own edit, so that the gate runs every time:
#   - an edit to FILE (a comment appended: a new content, so go rebuilds the package and runs its
#     tests again, the rest of the module cached);
#   - nothing of Go changed (an untracked file rewritten): go's test cache answers every package,
#     and what remains is what coverage adds to a cached run.
# Whole-process CPU of the stop (gauntlet and every process it started) under bench/measure,
# medians; goal: ratio <= 1.15 (issue: the overhead of default measurement).
# The covdata the shim runs is remembered across runs (internal/covshim): the first stop of each
# copy asks go for it.
# Usage: bench/coverage.sh REPO FILE   (REPO a git repository of a Go module, FILE one of its Go
#        files; N=11 for more pairs; GATE='run: go test -race ./...' for another test gate
#        than `argv: [go, test, ./...]`; needs go and git, and the module's dependencies in go's
#        module cache or reachable)
#   e.g. bench/coverage.sh ~/src/toml decode.go    (github.com/BurntSushi/toml)
set -euo pipefail
n=${N:-7}
gate=${GATE:-'argv: [go, test, ./...]'}
repo=$(cd "${1:?usage: bench/coverage.sh REPO FILE}" && pwd)
file=${2:?usage: bench/coverage.sh REPO FILE}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
export GOTOOLCHAIN=local XDG_STATE_HOME=$work/state

copy() { # copy DIR GATE: the project at DIR with one gate, its base's measures stored
	local dir=$1
	git clone -q "$repo" "$dir"
	(
		cd "$dir"
		printf 'version: 1\ngates:\n  test:\n    %s\n%s' "$gate" "$2" >.gauntlet.yml
		printf '.gauntlet/\n' >>.gitignore
		git add -A
		git -c commit.gpgsign=false commit -q --no-verify -m bench
		# A run on the clean base commit stores the base's census and coverage, as a session's
		# start does (its background judge): each stop then compares with them.
		"$g" run --base HEAD >/dev/null 2>&1 || true
		printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$dir" >"$work/$(basename "$dir").json"
		echo '// bench' >>"$file"
		"$g" stop-hook <"$work/$(basename "$dir").json" >/dev/null 2>&1 || true
	)
}
copy "$work/on" ''
copy "$work/off" '    coverage: "off"
'
cat >"$work/edit.sh" <<SH
#!/bin/sh
# edit.sh DIR: a new comment at the end of FILE, then the stop.
cd "\$1" && echo "// \$(date +%s%N)" >>"$file" && exec "$g" stop-hook <"$work/\$(basename "\$1").json" >/dev/null 2>&1
SH
cat >"$work/bump.sh" <<SH
#!/bin/sh
# bump.sh DIR: an untracked file rewritten (a new state, no Go changed), then the stop.
cd "\$1" && date +%s%N >bump.txt && exec "$g" stop-hook <"$work/\$(basename "\$1").json" >/dev/null 2>&1
SH
chmod 755 "$work/edit.sh" "$work/bump.sh"

header "coverage on by default, $(basename "$repo") ($(go env GOVERSION)), gate: $gate"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/edit.sh $work/on" "$work/edit.sh $work/off")
row "stop after an edit to $file, covered vs coverage: off" "<= 1.15" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/bump.sh $work/on" "$work/bump.sh $work/off")
row "stop, no Go file changed, covered vs coverage: off" "" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
# What was measured: the covered side read coverage and compared it with a stored base's.
grep -q '"coverage": {' "$work/on/.gauntlet/last-run.json" || die "the covered gate has no coverage"
grep -q '"coverage":{"format":"go"' "$work/on/.gauntlet/cache/census/"*.json || die "no base coverage was stored"
! grep -q '"coverage": {' "$work/off/.gauntlet/last-run.json" || die "the coverage: off gate was covered"
