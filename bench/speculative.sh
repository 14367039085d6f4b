#!/usr/bin/env bash
# Verdicts ready before the agent stops: the time from a stop to the hook's reply, each against
# its baseline in the same run, alternating (A B A B ...), medians and the median of per-pair
# ratios.
#   1. an agent-like loop on a repository whose gate takes GATE_S seconds: edit (the after-edit
#      hook fires), wait WAIT_S seconds as an agent writing its summary would, stop. With the
#      background judge (stop_hook.speculative: true) vs without it (false). Also counts how often
#      the gate ran per state (must be once);
#   2. a stop where a 1 s gate fails beside a 60 s gate: first_failure's default grace vs wait;
#   3. a new worktree's first stop on a tree another worktree judged: answered from the shared
#      cache, vs `git status --porcelain` in it.
# Usage: bench/speculative.sh   (RUNS=3, GATE_S=30, WAIT_S=20 by default; smaller for a quick look)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=${RUNS:-3}
gate_s=${GATE_S:-30}
wait_s=${WAIT_S:-20}

CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o bin/gauntlet ./cmd/gauntlet
g=$root/bin/gauntlet
work=$(mktemp -d)
trap 'pkill -f "$work" 2>/dev/null || true; rm -rf "$work"' EXIT
unset GAUNTLET
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com \
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com

now() { echo "$EPOCHREALTIME"; }
ms() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.0f", (e - s) * 1000 }'; }
median() { sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }

# repo DIR CONFIG: a committed repository with one source file and the config from stdin.
repo() {
	mkdir -p "$1"
	(cd "$1" && git init -q -b main && echo 0 >src.txt && printf '.gauntlet/\n' >.gitignore && cat >.gauntlet.yml &&
		git add -A && git commit -q -m init)
}

stop_json='{"session_id":"bench","transcript_path":"","hook_event_name":"Stop","stop_hook_active":false}'
edit_json='{"session_id":"bench","transcript_path":"","hook_event_name":"PostToolUse","tool_name":"Edit"}'

# agent DIR N: one edit-wait-stop cycle on state N; prints the stop's reply time in ms.
agent() {
	local dir=$1 n=$2 s e
	(cd "$dir" && echo "$n" >src.txt && echo "$edit_json" | "$g" after-edit --host claude)
	sleep "$wait_s"
	s=$(now)
	(cd "$dir" && echo "$stop_json" | "$g" stop-hook --host claude >/dev/null 2>&1)
	e=$(now)
	ms "$s" "$e"
}

echo "1. edit, wait ${wait_s}s, stop; the gate takes ${gate_s}s; ${runs} alternating pairs"
for mode in true false; do
	repo "$work/agent-$mode" <<-YAML
		version: 1
		stop_hook:
		  speculative: $mode
		gates:
		  test:
		    run: echo x >> $work/count-$mode; sleep $gate_s
	YAML
done
: >"$work/pairs1"
for i in $(seq 1 "$runs"); do
	a=$(agent "$work/agent-true" "$i")
	b=$(agent "$work/agent-false" "$i")
	echo "$a $b" >>"$work/pairs1"
done
spec=$(cut -d' ' -f1 "$work/pairs1" | median)
plain=$(cut -d' ' -f2 "$work/pairs1" | median)
ratio=$(awk '{ printf "%.3f\n", $1 / $2 }' "$work/pairs1" | median)
echo "   stop to reply, median: with the judge ${spec} ms, without ${plain} ms; ratio ${ratio}"
echo "   gate runs for ${runs} states: with the judge $(wc -l <"$work/count-true"), without $(wc -l <"$work/count-false")"

echo "2. a 1 s gate fails beside a 60 s gate; ${runs} alternating pairs"
for mode in 5s wait; do
	repo "$work/ff-$mode" <<-YAML
		version: 1
		stop_hook:
		  first_failure: $mode
		gates:
		  lint:
		    run: sleep 1; exit 1
		  test:
		    run: sleep 60
	YAML
done
: >"$work/pairs2"
for i in $(seq 1 "$runs"); do
	t=()
	for mode in 5s wait; do
		(cd "$work/ff-$mode" && echo "$i" >src.txt)
		s=$(now)
		(cd "$work/ff-$mode" && echo "$stop_json" | sed "s/bench/ff$i/" | "$g" stop-hook --host claude >/dev/null 2>&1)
		e=$(now)
		t+=("$(ms "$s" "$e")")
	done
	echo "${t[0]} ${t[1]}" >>"$work/pairs2"
done
echo "   stop to reply, median: first_failure 5s $(cut -d' ' -f1 "$work/pairs2" | median) ms, wait $(cut -d' ' -f2 "$work/pairs2" | median) ms"

echo "3. a new worktree's first stop on a tree another worktree judged; ${runs} worktrees"
repo "$work/main" <<-YAML
	version: 1
	cache: true
	gates:
	  test:
	    run: sleep 2
YAML
(cd "$work/main" && "$g" run >/dev/null 2>&1)
: >"$work/pairs3"
for i in $(seq 1 "$runs"); do
	git -C "$work/main" worktree add -q "$work/wt$i"
	s=$(now)
	(cd "$work/wt$i" && echo "$stop_json" | sed "s/bench/wt$i/" | "$g" stop-hook --host claude >/dev/null 2>&1)
	m=$(now)
	(cd "$work/wt$i" && git status --porcelain >/dev/null)
	e=$(now)
	echo "$(ms "$s" "$m") $(ms "$m" "$e")" >>"$work/pairs3"
done
echo "   first stop in a new worktree, median $(cut -d' ' -f1 "$work/pairs3" | median) ms (the gate takes 2000 ms); git status $(cut -d' ' -f2 "$work/pairs3" | median) ms"
