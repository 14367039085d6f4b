#!/usr/bin/env bash
# The cost of the test census at the stop: a stop whose go test gate is counted (go test asked
# for -json, its census compared with the base's, which is stored after the first stop) against
# the same stop with the same tests run where gauntlet cannot count them (behind a script). Each
# stop sees a new state (a file rewritten), so the gate runs every time; go's own test cache keeps
# both sides short. Alternating pairs under bench/measure, medians; goal: ratio <= 1.1.
# A third side adds coverage: auto (go test's -coverprofile, compared with the base's coverage).
# Usage: bench/census.sh   (N=21 for more pairs; needs go and git)
set -euo pipefail
n=${N:-11}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local XDG_STATE_HOME=$work/state

make_module() { # make_module DIR RUN: a module of 20 tests, committed, with one gate
	local dir=$1
	mkdir -p "$dir"
	(
		cd "$dir"
		printf 'module example.com/m\n\ngo 1.22\n' >go.mod
		printf 'package m\n\nfunc Add(a, b int) int { return a + b }\n' >m.go
		{
			printf 'package m\n\nimport "testing"\n'
			for i in $(seq 1 20); do printf '\nfunc TestAdd%d(t *testing.T) {\n\tif Add(%d, 1) != %d {\n\t\tt.Fatal()\n\t}\n}\n' "$i" "$i" $((i + 1)); done
		} >m_test.go
		printf '#!/bin/sh\nexec go test ./...\n' >t.sh
		chmod 755 t.sh
		printf 'version: 1\ngates:\n  test:\n    %s\n' "$2" >.gauntlet.yml
		printf '.gauntlet/\n' >.gitignore
		git init -q
		git add -A
		git -c commit.gpgsign=false commit -q -m bench
		printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$dir" >payload.json
		echo 'package m' >extra.go # a change, so that the base has a census to compare with
		"$g" stop-hook <payload.json >/dev/null 2>&1 || true
	)
}
make_module "$work/counted" 'argv: [go, test, ./...]'
make_module "$work/uncounted" 'run: ./t.sh'
make_module "$work/covered" 'argv: [go, test, ./...]
    coverage: auto'
# Each stop rewrites an untracked file, so that its state is new and the gate runs.
cat >"$work/stop.sh" <<SH
#!/bin/sh
cd "\$1" && date +%s%N >bump.txt && exec "$g" stop-hook <payload.json >/dev/null 2>&1
SH
chmod 755 "$work/stop.sh"

header "gauntlet test census at the stop"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/stop.sh $work/counted" "$work/stop.sh $work/uncounted")
row "stop, go test counted and compared vs not counted" "<= 1.1" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/stop.sh $work/covered" "$work/stop.sh $work/uncounted")
row "stop, census and coverage compared vs not counted" "<= 1.1" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
# What was measured: the counted side read its census and compared it with a stored base's.
grep -q '"tests": {' "$work/counted/.gauntlet/last-run.json" || die "the counted gate has no census"
ls "$work/counted/.gauntlet/cache/census/"*.json >/dev/null 2>&1 || die "no base census was stored"
grep -q '"tests_uncounted"' "$work/uncounted/.gauntlet/last-run.json" || die "the uncounted gate was counted"
grep -q '"coverage": {' "$work/covered/.gauntlet/last-run.json" || die "the covered gate has no coverage"
grep -q '"coverage":{"format":"go"' "$work/covered/.gauntlet/cache/census/"*.json || die "no base coverage was stored"
