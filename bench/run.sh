#!/usr/bin/env bash
# Compares `gauntlet run` with a plain-shell baseline doing the same work, one run each, and
# prints the ratio. Scenarios: (a) 8 gates of `true`, (b) 8 gates of `sleep 0.5`, (c) one gate
# printing 500 MB (plus gauntlet's peak memory, which must not grow with the output).
# Usage: bench/run.sh            (from the repository root; builds bin/gauntlet if needed)
#        OUTPUT_MB=100 bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
output_mb=${OUTPUT_MB:-500}

go build -o bin/gauntlet ./cmd/gauntlet
go build -tags bench -o bin/measure ./bench/measure
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure NAME CMD... -> sets wall_NAME and rss_NAME
measure() {
	local name=$1; shift
	local out
	out=$("$root/bin/measure" "$@" 2>"$work/$name.err") || true
	read -r wall rss code _ <<<"$out"
	if [ "${code:-1}" != 0 ]; then
		echo "bench: $name exited ${code:-?}:" >&2; tail -5 "$work/$name.err" >&2; exit 1
	fi
	printf -v "wall_$name" '%s' "$wall"
	printf -v "rss_$name" '%s' "$rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

gates_of() { # gates_of N COMMAND -> a config with N gates running COMMAND
	echo "version: 1"
	echo "jobs: $1"
	echo "gates:"
	for i in $(seq 1 "$1"); do printf "  g%d:\n    run: '%s'\n" "$i" "${2//\'/\'\'}"; done
}

# (a) 8 gates of true
mkdir -p "$work/a" && gates_of 8 'true' >"$work/a/.gauntlet.yml"
measure a_base sh -c 'for i in 1 2 3 4 5 6 7 8; do sh -c true & done; wait'
cd "$work/a" && measure a_gauntlet "$root/bin/gauntlet" run --color never && cd "$root"
# (b) 8 gates of sleep 0.5
mkdir -p "$work/b" && gates_of 8 'sleep 0.5' >"$work/b/.gauntlet.yml"
measure b_base sh -c 'for i in 1 2 3 4 5 6 7 8; do sh -c "sleep 0.5" & done; wait'
cd "$work/b" && measure b_gauntlet "$root/bin/gauntlet" run --color never && cd "$root"
# (c) one gate printing OUTPUT_MB megabytes in 64-byte lines
gen="yes $(printf '%063d' 0) | head -c $((output_mb * 1000000))"
mkdir -p "$work/c" && gates_of 1 "$gen" >"$work/c/.gauntlet.yml"
# The baseline discards the output: the ratio is the whole cost of capturing, scanning and logging it.
measure c_base sh -c "$gen > /dev/null"
cd "$work/c" && measure c_gauntlet "$root/bin/gauntlet" run --color never && cd "$root"
log_size=$(wc -c <"$(ls "$work"/c/.gauntlet/logs/*/g1.log)")

printf '%-34s %10s %10s %7s\n' scenario "shell (s)" "gauntlet (s)" ratio
printf '%-34s %10s %10s %7s\n' "(a) 8 gates of true" "$wall_a_base" "$wall_a_gauntlet" "$(ratio "$wall_a_gauntlet" "$wall_a_base")"
printf '%-34s %10s %10s %7s\n' "(b) 8 gates of sleep 0.5" "$wall_b_base" "$wall_b_gauntlet" "$(ratio "$wall_b_gauntlet" "$wall_b_base")"
printf '%-34s %10s %10s %7s\n' "(c) 1 gate printing ${output_mb} MB" "$wall_c_base" "$wall_c_gauntlet" "$(ratio "$wall_c_gauntlet" "$wall_c_base")"
echo "(c) peak RSS: gauntlet and its gate $((rss_c_gauntlet / 1024)) MiB (the largest single process of the tree); shell baseline $((rss_c_base / 1024)) MiB"
echo "(c) log file kept: $((log_size / 1048576)) MiB of ${output_mb} MB (capped at 16 MiB)"
