#!/usr/bin/env bash
# Replays the last N commits of a repository through `gauntlet run`'s PASS_TO_PASS comparison:
# for each commit C and its first parent P, a scratch clone checks out P and runs the test gate
# with --base P (a clean tree at its base: the run stores P's census and coverage), then checks
# out C and runs it again with --base P, reading the `tests-lost` and `coverage-lost` integrity
# findings of the JSON report. Every commit replayed is honest history, so each one flagged is
# a false alarm, a flaky test or a weakening the project committed: read them (VERBOSE=1 prints
# every finding). The shape rules' replay is bench/integrity-replay.sh; this one runs the tests,
# two runs of the gate per commit.
#
# Usage: bench/census-replay.sh REPO_GITDIR N GATE [PATHSPEC...]
#   GATE      the test gate's definition, a YAML flow mapping: '{argv: [go, test, ./...], coverage: auto}'
#   PATHSPEC  replay only commits touching these paths (default: every commit)
# Environment:
#   REV=HEAD           the history to replay; a range (A..HEAD) stops where the gate could run
#   FIRST_PARENT=1     follow the first parent only; 0 takes every non-merge commit of REV
#   WORK=/tmp/census-replay  where the scratch clone and the reports go
#   SETUP=CMD          a shell command run in the tree after each checkout, e.g. to link the
#                      dependencies installed once: 'ln -sfn /tmp/deps/node_modules node_modules'
#   EXCLUDE=PATTERN    one more pattern for .git/info/exclude: a file SETUP writes is no change
#   VERBOSE=1          print every finding
#   INTEGRITY=block    the integrity level of every rule, as the stop hook has it by default
#                      (run's default is warn): a shape rule the census and coverage outweigh
#                      is then a notice, and the shape rules' blocks are counted apart
# Output: a line per commit (flagged, quiet, or why it was not compared), then the totals.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 3 ]] || { sed -n '/^# Usage/,/^# Output/p' "$0" >&2; exit 2; }
git_dir=$1 n=$2 gate=$3
shift 3
go build -o bin/gauntlet ./cmd/gauntlet
echo "gauntlet at $(git rev-parse --short HEAD 2>/dev/null || echo 'a copy outside git')$(git diff --quiet HEAD -- . ':!bench' 2>/dev/null || echo ' (with uncommitted changes)')"
gauntlet=$PWD/bin/gauntlet

name=$(basename "$(cd "$git_dir" && pwd)")
[[ $name == repo || $name == .git ]] && name=$(basename "$(dirname "$(cd "$git_dir" && pwd)")")
work=${WORK:-/tmp/census-replay}/$name
rm -rf "$work"
mkdir -p "$work/reports"
git clone -q "$git_dir" "$work/tree"
cd "$work/tree"
{
	echo .gauntlet.yml
	echo .gauntlet/
	[[ -z ${EXCLUDE:-} ]] || echo "$EXCLUDE"
} >>.git/info/exclude
{
	echo 'version: 1'
	[[ -z ${INTEGRITY:-} ]] || echo "integrity: $INTEGRITY"
	echo 'gates:'
	# cache: false: a commit's tree was its child's parent a moment ago, and a gate answered
	# from the cache has no census. The stored census is no gate cache: it stays (--no-cache
	# would not do: it also passes over the stored census).
	echo "  test: {cache: false, ${gate#\{}"
} >.gauntlet.yml
"$gauntlet" validate >/dev/null

parent=--first-parent
[[ ${FIRST_PARENT:-1} == 0 ]] && parent=
mapfile -t commits < <(git log $parent --no-merges --format='%H %P' -n "$n" "${REV:-HEAD}" -- "$@")

replayed=0 flagged=0 failed=0 shaped=0
measured='select(.rule == "tests-lost" or .rule == "coverage-lost")'
shape='select(.rule != "tests-lost" and .rule != "coverage-lost" and .level == "block")'
for line in "${commits[@]}"; do
	read -r c p _ <<<"$line"
	[[ -n ${p:-} ]] || continue # the root commit has no parent
	short=${c:0:10}
	git checkout -q -f "$p" && git clean -fdq && eval "${SETUP:-:}"
	marker=$work/marker
	touch "$marker"
	"$gauntlet" run --base "$p" --format json="$work/reports/$short.base.json" >"$work/reports/$short.base.log" 2>&1 || true
	if [[ -z $(find .gauntlet/cache/census -name '*.json' -newer "$marker" 2>/dev/null) ]]; then
		echo "$short not compared: no census stored at its parent ($(jq -r '[.gates[]? | .name + " " + .status] | join(", ")' "$work/reports/$short.base.json" 2>/dev/null || echo 'no report'))"
		failed=$((failed + 1))
		continue
	fi
	if [[ $(jq -r '[.gates[]?.tests.passed // 0] | add // 0' "$work/reports/$short.base.json") == 0 ]]; then
		echo "$short not compared: no test passed at its parent ($(jq -r '[.gates[]? | .name + " " + .status] | join(", ")' "$work/reports/$short.base.json"))"
		failed=$((failed + 1))
		continue
	fi
	git checkout -q -f "$c" && git clean -fdq && eval "${SETUP:-:}"
	"$gauntlet" run --base "$p" --format json="$work/reports/$short.json" >"$work/reports/$short.log" 2>&1 || true
	if ! jq -e . "$work/reports/$short.json" >/dev/null 2>&1; then
		echo "$short not compared: no report at the commit"
		failed=$((failed + 1))
		continue
	fi
	replayed=$((replayed + 1))
	status=$(jq -r '[.gates[]? | .status] | join(",")' "$work/reports/$short.json")
	found=$(jq -r "[.integrity[]? | $measured] | length" "$work/reports/$short.json")
	shapes=$(jq -r "[.integrity[]? | $shape] | length" "$work/reports/$short.json")
	((shapes == 0)) || shaped=$((shaped + 1))
	if ((found + shapes > 0)); then
		((found == 0)) || flagged=$((flagged + 1))
		rules=$(jq -r "[.integrity[]? | $measured, $shape | .rule] | group_by(.) | map(\"\\(.[0]) \\(length)\") | join(\", \")" "$work/reports/$short.json")
		echo "$short flagged: $rules (gate $status) $(git log -1 --format=%s "$c")"
		if [[ -n ${VERBOSE:-} ]]; then
			jq -r ".integrity[]? | $measured, $shape | \"    \\(.rule) \\(.file):\\(.line) \\(.message)\"" "$work/reports/$short.json"
		fi
	else
		echo "$short quiet (gate $status)"
	fi
done
echo "$name: $replayed commits replayed, $flagged flagged by the census or coverage, $shaped by blocking shape rules, $failed not compared (reports in $work/reports)"
