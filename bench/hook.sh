#!/usr/bin/env bash
# The agent loop's costs, each against its floor in the same run. Every comparison alternates
# the two commands (A B A B ...) and prints their medians and the median of the per-pair
# ratios, so that a machine whose speed drifts still gives a fair ratio.
#   1. a stop hook on a state that already passed vs `git status --porcelain`, on 5,000 and on
#      50,000 files (goal: ratio <= 1.3);
#   2. a stop hook after editing a file that only one of three cached gates reads: which gates
#      ran (must be that one), and its time vs a stop hook without the cache;
#   3. five stop hooks at once on one tree: how often the gates ran (must be once), and the
#      slowest reply vs one hook alone;
#   4. `gauntlet run` of 8 gates of `true` vs a plain shell (goal: ratio <= 1.15);
#   5. `gauntlet version` vs an empty Go program.
# Usage: bench/hook.sh   (or make bench-hook; N=41 for more runs, SIZES="5000" for fewer files)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n=${N:-21}
sizes=${SIZES:-"5000 50000"}

# As `make build` builds it: static, so no dynamic loader on every call.
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o bin/gauntlet ./cmd/gauntlet
CGO_ENABLED=0 go build -tags bench -trimpath -ldflags '-s -w' -o bin/empty ./bench/empty
g=$root/bin/gauntlet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A stop hook called from inside a gate allows at once; the bench must see the real path.
unset GAUNTLET
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

die() { echo "bench: $*" >&2; exit 1; }

# compare N A B: runs the shell snippets A and B alternately N times; prints
# "median_a_ms median_b_ms median_ratio".
compare() {
	local runs=$1 a=$2 b=$3 i s m e
	: >"$work/pairs"
	for i in $(seq 1 "$runs"); do
		s=$EPOCHREALTIME; eval "$a"; m=$EPOCHREALTIME; eval "$b"; e=$EPOCHREALTIME
		awk -v s="$s" -v m="$m" -v e="$e" 'BEGIN { printf "%.3f %.3f %.4f\n", (m-s)*1000, (e-m)*1000, (m-s)/(e-m) }' >>"$work/pairs"
	done
	local ma mb mr
	ma=$(cut -d' ' -f1 "$work/pairs" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
	mb=$(cut -d' ' -f2 "$work/pairs" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
	mr=$(cut -d' ' -f3 "$work/pairs" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
	echo "$ma $mb $mr"
}

# make_repo DIR FILES CONFIG: a committed repository of FILES small files in 100-file folders.
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

# payload DIR SESSION: the file of a stop-hook payload, written once (a pipe would add a process
# to every timed call).
payload() {
	local f="$work/payload-${2}-$(basename "$1").json"
	[ -f "$f" ] || printf '{"session_id":"%s","hook_event_name":"Stop","cwd":"%s"}' "$2" "$1" >"$f"
	echo "$f"
}

# hook DIR SESSION: one stop-hook call; its reply goes to $work/reply.
hook() {
	local p
	p=$(payload "$1" "$2")
	"$g" stop-hook <"$p" >"$work/reply" 2>/dev/null
}
runs() { [ -f "$1" ] && wc -l <"$1" | tr -d ' ' || echo 0; }

echo "gauntlet bench, $(nproc) CPUs, $n alternating runs per comparison; times are medians in ms"
echo

# 1. The stop hook on a state that already passed.
for size in $sizes; do
	repo=$work/fast$size
	make_repo "$repo" "$size" <<EOF
version: 1
gates:
  once:
    run: echo ran >> "$work/fast$size.runs"
EOF
	hook "$repo" bench
	[ -s "$work/reply" ] && die "the first stop hook did not allow: $(cat "$work/reply")"
	p=$(payload "$repo" bench)
	read -r a b r < <(compare "$n" "\$g stop-hook <$p >/dev/null 2>&1" "git -C $repo status --porcelain >/dev/null")
	[ "$(runs "$work/fast$size.runs")" = 1 ] || die "the gate ran $(runs "$work/fast$size.runs") times on $size files, want 1"
	printf '1. cached stop-hook, %6d files: %8.1f   git status --porcelain %8.1f   ratio %.2f (goal <= 1.3)\n' "$size" "$a" "$b" "$r"
done

# 2. An edit that one of three cached gates reads. The gates burn CPU like a small test suite.
burn='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
three() { # three CACHE: gates a, b, c reading d000/, d001/, d002/
	echo "version: 1"
	echo "cache: $1"
	echo "gates:"
	local x d=0
	for x in a b c; do
		printf '  %s:\n    run: echo ran >> "%s/three-%s-%s.runs"; %s\n    inputs: ["d00%d/**"]\n' "$x" "$work" "$1" "$x" "$burn" "$d"
		d=$((d + 1))
	done
}
three true | make_repo "$work/cached" 5000
three false | make_repo "$work/uncached" 5000
hook "$work/cached" bench
hook "$work/uncached" bench
edit=0
edit_and_hook() { # DIR: edit a file only gate a reads, then stop
	edit=$((edit + 1))
	echo "edit $edit" >"$1/d000/f0.txt"
	hook "$1" bench
}
read -r a b r < <(compare 5 'edit_and_hook $work/cached' 'edit_and_hook $work/uncached')
ran="a $(($(runs "$work/three-true-a.runs") - 1)), b $(($(runs "$work/three-true-b.runs") - 1)), c $(($(runs "$work/three-true-c.runs") - 1))"
{ [ "$(runs "$work/three-true-b.runs")" = 1 ] && [ "$(runs "$work/three-true-c.runs")" = 1 ]; } || die "gates b and c reran: $ran"
printf '2. after an edit only gate a reads (5 edits): runs after the first: %s; cached %8.1f   uncached %8.1f   ratio %.2f\n' "$ran" "$a" "$b" "$r"

# 3. Five stop hooks at once on one tree: a new state each round, so that none is answered from
# an earlier pass.
make_repo "$work/five" 5000 <<EOF
version: 1
stop_hook:
  lock_wait: 1s
gates:
  judge:
    run: echo ran >> "$work/five.runs"; $burn
EOF
round=0
for i in 1 2 3 4 5; do payload "$work/five" "s$i" >/dev/null; done
five_at_once() {
	round=$((round + 1))
	echo "round $round" >"$work/five/untracked.txt"
	local i
	for i in 1 2 3 4 5; do
		"$g" stop-hook <"$work/payload-s$i-five.json" >"$work/five-$i.reply" 2>/dev/null &
	done
	wait
	for i in 1 2 3 4 5; do
		if [ -s "$work/five-$i.reply" ]; then die "hook $i did not allow: $(cat "$work/five-$i.reply")"; fi
	done
}
one_alone() {
	round=$((round + 1))
	echo "round $round" >"$work/five/untracked.txt"
	hook "$work/five" alone
}
before=$(runs "$work/five.runs")
read -r a b r < <(compare 5 five_at_once one_alone)
total=$(($(runs "$work/five.runs") - before))
[ "$total" = 10 ] || die "the gate ran $total times in 5 rounds of 5 hooks and 5 single hooks, want 10 (once per round)"
printf '3. five stop hooks at once (5 rounds): the gate ran once per round; slowest reply %8.1f   one hook alone %8.1f   ratio %.2f\n' "$a" "$b" "$r"

# 4. 8 gates of true vs the same with a plain shell.
mkdir -p "$work/eight"
{
	echo "version: 1"
	echo "jobs: 8"
	echo "gates:"
	for i in 1 2 3 4 5 6 7 8; do printf '  g%d:\n    run: "true"\n' "$i"; done
} >"$work/eight/.gauntlet.yml"
read -r a b r < <(compare "$n" '$g run -c $work/eight/.gauntlet.yml --color never >/dev/null' "sh -c 'for i in 1 2 3 4 5 6 7 8; do sh -c true & done; wait'")
printf '4. gauntlet run, 8 gates of true: %8.1f   plain shell %8.1f   ratio %.2f (goal <= 1.15)\n' "$a" "$b" "$r"

# 5. Start-up: gauntlet version vs a Go program that does nothing.
read -r a b r < <(compare "$n" '$g version >/dev/null' '$root/bin/empty')
printf '5. gauntlet version: %8.1f   empty Go program %8.1f   ratio %.2f\n' "$a" "$b" "$r"
