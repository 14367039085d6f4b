#!/usr/bin/env bash
# Replays the last N commits of a repository (each against its first parent, merges skipped) as
# changes under judgement and prints how many commits raise each integrity rule: how often the
# integrity check would speak up on ordinary, honest history. VERBOSE=1 lists every finding.
# It reads the diffs only; bench/census-replay.sh is its companion for the measured rules
# (tests-lost, coverage-lost): it runs the test gate at each commit and at its parent.
# Usage: bench/integrity-replay.sh REPO_GITDIR [N]    (N defaults to 200)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: $0 REPO_GITDIR [N]" >&2; exit 2; }
go build -tags bench -o bin/integrity-replay ./bench/integrityreplay
exec bin/integrity-replay -git-dir "$1" -n "${2:-200}" ${VERBOSE:+-v}
