#!/usr/bin/env bash
# Measures the stop hook's fast path: on a repository of 5,000 committed files whose state already
# passed, `gauntlet stop-hook` must answer from its fingerprint without running any gate. Prints
# the median of N cached stop-hook calls, the median of N `git status --porcelain` calls in the
# same repository (the floor any change-aware hook pays), and their ratio. Fails if the gate ran
# more than once, i.e. if the cache did not answer.
# Usage: bench/stophook.sh            (from the repository root; builds bin/gauntlet)
#        N=51 bench/stophook.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n=${N:-21}

go build -o bin/gauntlet ./cmd/gauntlet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A stop hook called from inside a gate allows at once; the bench must see the real path.
unset GAUNTLET

repo=$work/repo
counter=$work/gate-runs # outside the repository, so that counting does not change the fingerprint
mkdir -p "$repo"
cd "$repo"
git init -q
for d in $(seq -w 0 49); do
	for e in $(seq 0 9); do
		mkdir -p "d$d/e$e"
		for f in $(seq 0 9); do echo "file $d/$e/$f" >"d$d/e$e/f$f.txt"; done
	done
done
printf '.gauntlet/\n.gauntlet.local.yml\n' >.gitignore
cat >.gauntlet.yml <<EOF
version: 1
gates:
  once:
    run: 'echo ran >> "$counter"'
EOF
git add -A
git -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q --no-verify -m bench
printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$repo" >"$work/payload.json"

# stop_hook_once: one stop-hook call, which must allow silently (a pass, fresh or cached).
stop_hook_once() {
	local code=0
	"$root/bin/gauntlet" stop-hook <"$work/payload.json" >"$work/out" 2>"$work/err" || code=$?
	if [ "$code" != 0 ] || [ -s "$work/out" ]; then
		echo "bench: stop-hook exited $code with stdout:" >&2
		cat "$work/out" "$work/err" >&2
		exit 1
	fi
}
git_status_once() { git status --porcelain >/dev/null; }

# median_ms FUNCTION -> the median wall time of N calls of FUNCTION, in milliseconds
median_ms() {
	local i start end
	for i in $(seq 1 "$n"); do
		start=$(date +%s%N)
		"$1"
		end=$(date +%s%N)
		echo $((end - start))
	done | sort -n | awk '{ t[NR] = $1 } END { printf "%.1f", t[int((NR + 1) / 2)] / 1e6 }'
}

stop_hook_once # the one real run: records the pass
git_status_once
hook_ms=$(median_ms stop_hook_once)
git_ms=$(median_ms git_status_once)

runs=0
[ -f "$counter" ] && runs=$(($(wc -l <"$counter")))
if [ "$runs" != 1 ]; then
	echo "bench: the gate ran $runs times, want exactly 1: the cached stop-hook reran it" >&2
	exit 1
fi
ratio=$(awk -v a="$hook_ms" -v b="$git_ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "$(git ls-files | wc -l) files, $n calls each"
echo "cached stop-hook median $hook_ms ms; git status --porcelain median $git_ms ms; ratio $ratio"
