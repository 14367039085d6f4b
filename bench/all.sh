#!/usr/bin/env bash
# Every figure of gauntlet's performance goals in one run (make bench-all), each against its
# baseline in the same run:
#   bench/speculative.sh  the agent loop (edit, wait, stop) with and without the background
#                         judge; gate runs per state; a fast failure beside a slow gate; a new
#                         worktree's first stop;
#   bench/fixed.sh        the cached stop hook vs git status at 5,000 and 50,000 files; run of 8
#                         gates of true vs a minimal spawner; 500 MB through a gate, findings on
#                         vs off, and peak memory;
#   bench/tools.sh        gauntlet vs lefthook and prek (from npm) with 8 and 200 commands.
# QUICK=1 runs everything small (a few minutes) to see that it works; the figures then mean
# little. Otherwise each script's defaults apply, and the knobs pass through: RUNS, GATE_S,
# WAIT_S (speculative), N, SIZES, OUTPUT_MB (fixed, tools).
set -euo pipefail
cd "$(dirname "$0")"
if [ "${QUICK:-}" = 1 ]; then
	export RUNS=${RUNS:-1} GATE_S=${GATE_S:-3} WAIT_S=${WAIT_S:-4} N=${N:-3} SIZES=${SIZES:-5000} OUTPUT_MB=${OUTPUT_MB:-20}
fi
echo "== gauntlet $(git describe --always --dirty 2>/dev/null || echo '(no git)'), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== verdicts ready before the agent stops (bench/speculative.sh)"
./speculative.sh
echo
echo "== fixed costs (bench/fixed.sh)"
./fixed.sh
echo
echo "== against lefthook and prek (bench/tools.sh)"
./tools.sh
