#!/usr/bin/env bash
# The edit guard's latency per call (gauntlet pre-edit, the PreToolUse hook every edit and shell
# command of the agent waits on), on a committed repository of 5,000 files. The kinds of call
# run in rotation (A B C D E A B C D E ...) under bench/measure, so that a machine whose speed
# drifts slows them all alike; each prints its median and p99 wall time per call:
#   1. `gauntlet version`: the floor, starting the program;
#   2. an ordinary source edit (no rule finds anything: no git process);
#   3. a test added to a test file (the rules read it in memory; no git process);
#   4. a shell command without a bypass (`git commit -m`);
#   5. a test removed (the rules find it in memory, then git confirms it against the base): denied.
# Goal: 2-4 at most 15 ms at the median and p99 (5 asks git, and may take longer).
# Usage: bench/preedit.sh   (or make bench-preedit; N=500 for more calls, FILES=50000)
set -euo pipefail
n=${N:-200}
files=${FILES:-5000}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

repo=$work/repo
make_repo "$repo" "$files" <<'EOF2'
version: 1
gates:
  test:
    run: go test ./...
EOF2
(
	cd "$repo"
	printf 'package lib\n\nfunc Add(a, b int) int { return a + b }\n' >lib.go
	printf 'package lib\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal("0+0")\n\t}\n}\n' >lib_test.go
	git add -A && git -c commit.gpgsign=false commit -q --no-verify -m lib
)
pay() { printf '{"session_id":"bench","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"%s","tool_input":%s}' "$repo" "$1" "$2" >"$work/$3.json"; }
pay Edit '{"file_path":"lib.go","old_string":"return a + b","new_string":"return b + a"}' source
pay Edit '{"file_path":"lib_test.go","old_string":"func TestZero(t *testing.T) {\n","new_string":"func TestOne(t *testing.T) {\n\tif Add(1, 0) != 1 {\n\t\tt.Fatal(\"1+0\")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n"}' addtest
pay Bash '{"command":"git commit -am fix"}' commit
pay Edit '{"file_path":"lib_test.go","old_string":"func TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n","new_string":""}' removetest

# Each kind answers as it should before it is timed.
for kind in source addtest commit; do
	out=$("$g" pre-edit <"$work/$kind.json" 2>/dev/null)
	[ -z "$out" ] || die "$kind was not allowed: $out"
done
"$g" pre-edit <"$work/removetest.json" 2>/dev/null | grep -q '"permissionDecision":"deny"' || die "removing a test was not denied"

kinds="version source addtest commit removetest"
for kind in $kinds; do : >"$work/$kind.ms"; done
for i in $(seq 0 "$n"); do # round 0 warms the caches up and is not counted
	for kind in $kinds; do
		if [ "$kind" = version ]; then
			read -r wall _ code _ <<<"$("$root/bin/measure" -dir "$repo" "$g" version 2>/dev/null)"
		else
			read -r wall _ code _ <<<"$("$root/bin/measure" -dir "$repo" -stdin "$work/$kind.json" "$g" pre-edit 2>/dev/null)"
		fi
		[ "$code" = 0 ] || die "$kind exited $code"
		[ "$i" = 0 ] || awk -v w="$wall" 'BEGIN { printf "%.2f\n", w * 1000 }' >>"$work/$kind.ms"
	done
done

pct() { # pct P: the P-th percentile (nearest rank) of the numbers on stdin
	sort -n | awk -v p="$1" '{ v[NR] = $1 } END { r = int(NR * p / 100 + 0.999999); if (r < 1) r = 1; print v[r] }'
}
echo "gauntlet pre-edit on $files files, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $n calls of each kind in rotation"
printf '%-52s %10s %10s   %s\n' "call" "median ms" "p99 ms" goal
for kind in $kinds; do
	case $kind in
	version) label="1. gauntlet version (the floor)" goal="" ;;
	source) label="2. ordinary source edit, allowed" goal="<= 15" ;;
	addtest) label="3. test added, allowed" goal="<= 15" ;;
	commit) label="4. git commit -m, allowed" goal="<= 15" ;;
	removetest) label="5. test removed, denied (asks git)" goal="" ;;
	esac
	printf '%-52s %10s %10s   %s\n' "$label" "$(median <"$work/$kind.ms")" "$(pct 99 <"$work/$kind.ms")" "$goal"
done
