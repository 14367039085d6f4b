#!/usr/bin/env bash
# The cost, at the stop, of two measures on a real Python project (pypa/packaging, four of its test
# files, 7,953 tests) judged by the gate a user writes, `make test` (pytest in the recipe):
#   1. the census through the runner's own options set from outside (PYTEST_ADDOPTS asks pytest
#      for a JUnit report in the run's folder; the report read and compared with the base's)
#      against the same stop with `tests: off`; the change touches a code file only;
#   2. expectation-changed (issue 42: the base's tests run against the change's code) for a
#      change that touches a test file and a code file, against the same stop with the rule off.
# Each stop sees a new state (an untracked file rewritten), so the gate runs every time; the
# base's measures are stored by a first stop that is not counted. Alternating pairs under
# bench/measure, medians.
# Usage: bench/scriptcensus.sh [PACKAGING_GIT]   (N=5 pairs by default; needs git, make and a
# python3 with pytest, pretend and hypothesis first on PATH; packaging's sources from the given
# repository, by default the local mirror)
set -euo pipefail
n=${N:-5}
src=${1:-/work/.mirror/pypa+packaging/repo}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state
python3 -c 'import pytest, pretend, hypothesis' 2>/dev/null || die "python3 lacks pytest, pretend or hypothesis"

# project DIR GATE_EXTRA INTEGRITY: packaging with the bench's Makefile and a one-gate config.
project() {
	local dir=$1
	git clone -q "$src" "$dir"
	(
		cd "$dir"
		# No upstream: the session's base is the bench's commit, not the mirror's branch (which
		# has neither the Makefile nor the config).
		git remote remove origin
		printf '.PHONY: test\ntest:\n\tPYTHONPATH=src python3 -m pytest -q -p no:cacheprovider tests/test_markers.py tests/test_requirements.py tests/test_utils.py tests/test_tags.py\n' >Makefile
		printf 'version: 1\nstop_hook:\n  max_attempts: 1000\ngates:\n  test:\n    run: make test\n%s%s' "$2" "$3" >.gauntlet.yml
		printf '.gauntlet/\n' >>.gitignore
		git add -A
		git -c commit.gpgsign=false commit -q -m bench
		printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$dir" >"$work/$(basename "$dir").json"
	)
}
# touch_code DIR / touch_test DIR: the change each stop judges (a comment in a code file; and a
# new test in a test file, which passes at the base and now).
touch_code() { printf '\n# bench\n' >>"$1/src/packaging/utils.py"; }
touch_test() { printf '\n\ndef test_bench_added():\n    assert True\n' >>"$1/tests/test_utils.py"; }

project "$work/counted" '' ''
project "$work/off" '    tests: off
' ''
project "$work/expect" '' ''
project "$work/noexpect" '' 'integrity:
  rules:
    expectation-changed: "off"
'
touch_code "$work/counted"
touch_code "$work/off"
for d in expect noexpect; do touch_code "$work/$d" && touch_test "$work/$d"; done

cat >"$work/stop.sh" <<SH
#!/bin/sh
cd "\$1" && date +%s%N >bump.txt && exec "$g" stop-hook <"$work/\$(basename "\$1").json" >"$work/\$(basename "\$1").out" 2>&1
SH
chmod 755 "$work/stop.sh"
# The first stop of each measures the base (stored); it is not counted.
for d in counted off expect noexpect; do "$work/stop.sh" "$work/$d" || true; done

header "make test (pytest, 7,953 tests) at the stop"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/stop.sh $work/counted" "$work/stop.sh $work/off")
row "census via PYTEST_ADDOPTS vs tests: off" "<= 1.15" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
# A stop answered from a record runs no gate, and would measure nothing: the gate takes seconds.
[ "${wa%.*}" -gt 3000 ] && [ "${wb%.*}" -gt 3000 ] || die "a stop took under 3 s: the gate did not run"
grep -q '"source": "report"' "$work/counted/.gauntlet/last-run.json" || die "the counted gate has no census from its report"
ls "$work/counted/.gauntlet/cache/census/"*.json >/dev/null 2>&1 || die "no base census was stored: nothing was compared"
grep -q '"tests_uncounted"\|"tests": {' "$work/off/.gauntlet/last-run.json" && die "the tests: off gate was counted"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$work/stop.sh $work/expect" "$work/stop.sh $work/noexpect")
row "test file touched: expectation-changed on vs off" "-" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
ls -R "$work/expect/.gauntlet/" | grep -q expectations || die "the base's tests never ran against the change's code"
if ls -R "$work/noexpect/.gauntlet/" | grep -q expectations; then die "expectation-changed ran where it is off"; fi
