#!/usr/bin/env bash
# The complexity of gauntlet's non-test Go code, in the three figures docs/development.md keeps:
# average cyclomatic complexity (gocyclo), functions above 15 per 1,000 lines, and the worst
# cognitive complexity (gocognit), with the ten worst functions by each. Both tools are fetched
# through the Go module proxy (pinned below), or the script says it cannot and exits 0.
# Usage: bench/complexity.sh   (or make complexity)
set -euo pipefail
cd "$(dirname "$0")/.."
gocyclo_version=v0.6.0
gocognit_version=v1.3.0
tools=$PWD/bin/tools
mkdir -p "$tools"
for t in "github.com/fzipp/gocyclo/cmd/gocyclo@$gocyclo_version" "github.com/uudashr/gocognit/cmd/gocognit@$gocognit_version"; do
	if ! GOBIN=$tools go install "$t" >/dev/null 2>&1; then
		echo "complexity: $t could not be fetched through the Go module proxy, skipped"
		exit 0
	fi
done
# Non-test code: every tracked .go file but tests and test data.
mapfile -t files < <(git ls-files '*.go' | grep -v -e '_test\.go$' -e '/testdata/')
lines=$(cat "${files[@]}" | wc -l)
avg=$("$tools/gocyclo" -avg "${files[@]}" | awk '/^Average:/ { print $2 }')
# Both tools exit 1 when they report a function over a threshold: that is the figure, no failure.
over=$({ "$tools/gocyclo" -over 15 "${files[@]}" || true; } | wc -l)
worst=$({ "$tools/gocognit" -top 1 "${files[@]}" 2>/dev/null || true; } | awk '{ print $1 }')
printf 'non-test Go code: %d files, %d lines\n' "${#files[@]}" "$lines"
printf '%-45s %8s   %s\n' "average cyclomatic complexity" "$avg" "(goal <= 4.5)"
printf '%-45s %8.2f   %s\n' "functions above 15, per 1,000 lines" "$(echo "$over $lines" | awk '{ print $1 * 1000 / $2 }')" "($over functions; goal <= 1.0)"
printf '%-45s %8s   %s\n' "worst cognitive complexity" "$worst" "(goal <= 60)"
echo
echo "worst cyclomatic:"
{ "$tools/gocyclo" -top 10 "${files[@]}" || true; } | sed 's/^/  /'
echo "worst cognitive:"
{ "$tools/gocognit" -top 10 "${files[@]}" 2>/dev/null || true; } | sed 's/^/  /'
