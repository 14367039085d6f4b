#!/usr/bin/env bash
# The stop hook on a state that already passed, this tree's gauntlet against the gauntlet of an
# earlier commit, alternating (A B A B ...) in the same run, so that a change's cost on the
# hottest path is a ratio and not two figures from two different machines' moods.
# Usage: bench/versus.sh REV   (N=21 for more pairs, SIZE=50000 for a larger repository)
# A is this tree, B is REV; a ratio above 1 means this tree is slower.
set -euo pipefail
rev=${1:?usage: bench/versus.sh REV}
n=${N:-11}
size=${SIZE:-5000}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

git worktree add -q --detach "$work/old" "$rev"
(cd "$work/old" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$work/gauntlet-old" ./cmd/gauntlet)
git worktree remove --force "$work/old"
cp "$work/gauntlet-old" "$work/gauntlet-old.copy" && mv "$work/gauntlet-old.copy" "$work/gauntlet-old"

header "cached stop hook, this tree vs $(git rev-parse --short "$rev")"
# One repository each: the two versions' caches need not read each other's records.
for side in new old; do
	make_repo "$work/$side" "$size" <<YML
version: 1
gates:
  once:
    run: echo ran >> "$work/$side.runs"
YML
	printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$work/$side" >"$work/$side.json"
done
bin_new=$g bin_old=$work/gauntlet-old
for side in new old; do
	bin=bin_$side
	(cd "$work/$side" && "${!bin}" stop-hook <"$work/$side.json" >"$work/reply" 2>/dev/null) || true
	[ -s "$work/reply" ] && die "the first stop ($side) did not allow: $(cat "$work/reply")"
done
read -r wa wb wr ca cb cr _ < <(compare "$n" "-dir $work/new -stdin $work/new.json $bin_new stop-hook" "-dir $work/old -stdin $work/old.json $bin_old stop-hook")
for side in new old; do
	runs=$(wc -l <"$work/$side.runs")
	[ "$runs" -eq 1 ] || die "the $side gate ran $runs times, want 1 (the cache did not answer)"
done
row "cached stop hook, $size files, this tree vs $rev" "<= 1.05" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
