#!/usr/bin/env bash
# gauntlet's fixed costs, each against its floor in the same run. Every comparison alternates the
# two commands (A B A B ...) under bench/measure and prints the medians of wall time and of CPU
# time (user + system, children included) and the median of the per-pair ratios, so that a
# machine whose speed drifts still gives a fair ratio. On a loaded machine read the CPU ratio: the
# wall ratio then mostly says how the scheduler shared the cores.
#   1. a stop hook on a state that already passed vs `git status --porcelain`, on 5,000 and on
#      50,000 files (goals: ratio <= 1.3 and <= 1.1);
#   2. `gauntlet run` of 8 gates of `true` vs bench/spawn, a minimal Go program that starts the
#      same 8 shell commands at once and waits for them (goal: ratio <= 1.3);
#   3. 500 MB through one gate with findings on vs the same gate with `format: none` (goal:
#      ratio <= 2), and gauntlet's peak memory (goal: <= 16 MiB).
# Usage: bench/fixed.sh   (or make bench-fixed; N=21 for more runs, SIZES="5000" for fewer
#        files, OUTPUT_MB=100 for less output)
set -euo pipefail
n=${N:-11}
sizes=${SIZES:-"5000 50000"}
output_mb=${OUTPUT_MB:-500}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

header "gauntlet fixed costs"
# 1. The stop hook on a state that already passed.
for size in $sizes; do
	repo=$work/fast$size
	make_repo "$repo" "$size" <<EOF
version: 1
gates:
  once:
    run: echo ran >> "$work/fast$size.runs"
EOF
	printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$repo" >"$work/payload$size.json"
	(cd "$repo" && "$g" stop-hook <"$work/payload$size.json" >"$work/reply" 2>/dev/null) || true
	[ -s "$work/reply" ] && die "the first stop hook did not allow: $(cat "$work/reply")"
	read -r wa wb wr ca cb cr _ < <(compare "$n" "-dir $repo -stdin $work/payload$size.json $g stop-hook" "-dir $repo git status --porcelain")
	runs=$(wc -l <"$work/fast$size.runs")
	[ "$runs" -eq 1 ] || die "the gate ran $runs times on $size files, want 1 (the cache did not answer)"
	row "1. cached stop hook vs git status --porcelain, $size files" "<= $([ "$size" -ge 50000 ] && echo 1.1 || echo 1.3)" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
done

# 2. 8 gates of true against the minimal spawner.
mkdir -p "$work/eight"
{
	echo "version: 1"
	echo "jobs: 8"
	echo "gates:"
	for i in 1 2 3 4 5 6 7 8; do printf '  g%d:\n    run: "true"\n' "$i"; done
} >"$work/eight/.gauntlet.yml"
read -r wa wb wr ca cb cr _ < <(compare "$n" "-dir $work/eight $g run --color never" "$root/bin/spawn true true true true true true true true")
row "2. run, 8 gates of true, vs bench/spawn" "<= 1.3" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"

# 3. OUTPUT_MB megabytes through one gate, in 64-byte lines, findings on vs format: none.
gen="yes $(printf '%063d' 0) | head -c $((output_mb * 1000000))"
mkdir -p "$work/on" "$work/off"
printf "version: 1\ngates:\n  out:\n    run: '%s'\n" "$gen" >"$work/on/.gauntlet.yml"
printf "version: 1\ngates:\n  out:\n    run: '%s'\n    format: none\n" "$gen" >"$work/off/.gauntlet.yml"
read -r wa wb wr ca cb cr peak < <(compare "$(((n + 1) / 2))" "-dir $work/on $g run --color never" "-dir $work/off $g run --color never")
row "3. $output_mb MB through one gate, findings on vs format: none" "<= 2" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
echo "   peak memory, findings on: $((peak / 1024)) MiB (goal <= 16 MiB; the largest single process: gauntlet)"
