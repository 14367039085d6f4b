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
cd "$(dirname "$0")/.."
root=$PWD
n=${N:-11}
sizes=${SIZES:-"5000 50000"}
output_mb=${OUTPUT_MB:-500}

# As `make build` builds it: static, so no dynamic loader on every call.
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o bin/gauntlet ./cmd/gauntlet
for helper in measure spawn; do
	CGO_ENABLED=0 go build -tags bench -trimpath -ldflags '-s -w' -o "bin/$helper" "./bench/$helper"
done
g=$root/bin/gauntlet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A stop hook called from inside a gate allows at once; the bench must see the real path.
unset GAUNTLET
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

die() { echo "bench: $*" >&2; exit 1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# compare RUNS A B: runs the argument strings A and B (each: [measure options] COMMAND ARGS,
# split on spaces) alternately under bench/measure; prints "wall_a wall_b wall_ratio cpu_a
# cpu_b cpu_ratio peak_a_kib" (times in ms, medians).
compare() {
	local runs=$1 a=$2 b=$3 i
	: >"$work/pairs"
	for i in $(seq 0 "$runs"); do # run 0 warms the caches up and is not counted
		# shellcheck disable=SC2086 # the commands are word lists
		read -r wa ra ca ua <<<"$("$root/bin/measure" $a 2>>"$work/a.err")"
		# shellcheck disable=SC2086
		read -r wb rb cb ub <<<"$("$root/bin/measure" $b 2>>"$work/b.err")"
		[ "$ca" = 0 ] || die "A exited $ca: $a: $(tail -3 "$work/a.err")"
		[ "$cb" = 0 ] || die "B exited $cb: $b: $(tail -3 "$work/b.err")"
		[ "$i" = 0 ] && continue
		echo "$wa $wb $ua $ub $ra" >>"$work/pairs"
	done
	local col
	for col in '$1*1000' '$2*1000' '$1/$2' '$3*1000' '$4*1000' '($4>0 ? $3/$4 : 0)' '$5'; do
		awk "{ print $col }" "$work/pairs" | median
	done | paste -sd' '
}

# make_repo DIR FILES: a committed repository of FILES small files in 100-file folders, with the
# config on stdin.
make_repo() {
	local dir=$1 files=$2
	mkdir -p "$dir"
	(
		cd "$dir"
		git init -q
		seq 0 $(((files - 1) / 100)) | awk '{ printf "d%03d\n", $1 }' | xargs mkdir -p
		awk -v n="$files" 'BEGIN { for (i = 0; i < n; i++) { f = sprintf("d%03d/f%d.txt", int(i / 100), i); print "file " i > f; close(f) } }'
		printf '.gauntlet/\n' >.gitignore
		cat >.gauntlet.yml
		git add -A
		git -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q --no-verify -m bench
	)
}

row() { # row LABEL GOAL wall_a wall_b wall_ratio cpu_a cpu_b cpu_ratio
	printf '%-58s %9.1f %9.1f %6.2f   %9.1f %9.1f %6.2f   %s\n' "$1" "$3" "$4" "$5" "$6" "$7" "$8" "$2"
}

echo "gauntlet fixed costs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $n alternating pairs per row (medians)"
printf '%-58s %9s %9s %6s   %9s %9s %6s   %s\n' "A vs B" "A wall ms" "B wall ms" ratio "A cpu ms" "B cpu ms" ratio goal

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
