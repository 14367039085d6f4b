#!/usr/bin/env bash
# The first stop of a session with no stored census of the base (no background judge ran, as
# when speculative verdicts are off or the host has no after-edit hook): before this round it ran
# the base's whole suite; now the base's tests are listed and only those the comparison needs run
# there. A module of 300 tests in 10 packages (each sleeps 10 ms), an honest one-line edit, then
# one stop. Three sides, alternating, medians: the gates alone (go test -count=1 ./..., what the
# stop's gate runs), the stop with gauntlet built from BASE_REF (default: the last commit before
# this round's blame work), and the stop with this tree's gauntlet (the base's tests listed from
# its commit, none run: the edit touches no test). Prints each stop's ratio to the
# gates alone; goal for this tree: <= 1.5.
# Usage: bench/firststop.sh   (N=7 for more runs; BASE_REF=commit; needs go and git)
set -euo pipefail
n=${N:-5}
base_ref=${BASE_REF:-db78c80}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local XDG_STATE_HOME=$work/state

# The baseline binary, built from BASE_REF in a worktree of this repository.
git -C "$root" worktree add -q --detach "$work/old-src" "$base_ref"
(cd "$work/old-src" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$work/gauntlet-old" ./cmd/gauntlet)
git -C "$root" worktree remove --force "$work/old-src"

tmpl=$work/tmpl
mkdir -p "$tmpl"
(
	cd "$tmpl"
	printf 'module example.com/m\n\ngo 1.22\n' >go.mod
	for p in $(seq 0 9); do
		mkdir -p "p$p"
		printf 'package p%d\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n' "$p" >"p$p/p.go"
		{
			printf 'package p%d\n\nimport (\n\t"testing"\n\t"time"\n)\n' "$p"
			for i in $(seq 1 30); do
				printf '\nfunc TestAdd%d(t *testing.T) {\n\ttime.Sleep(10 * time.Millisecond)\n\tif Add(%d, 1) != %d {\n\t\tt.Fatal()\n\t}\n}\n' "$i" "$i" $((i + 1))
			done
		} >"p$p/p_test.go"
	done
	printf 'version: 1\nstop_hook:\n  speculative: false\ngates:\n  test:\n    argv: [go, test, -count=1, ./...]\n' >.gauntlet.yml
	printf '.gauntlet/\n' >.gitignore
	git init -q
	git add -A
	git -c commit.gpgsign=false commit -q -m bench
	go test -count=1 ./... >/dev/null # the build cache, for every side
)

# side BIN: a fresh copy of the module, its session started, an honest edit, then one stop by BIN
# (or, with BIN "gates", the gate's own command).
cat >"$work/side.sh" <<'SIDE'
#!/usr/bin/env bash
set -eu
bin=$1 tmpl=$2 dir=$(mktemp -d)
trap 'git -C "$dir/m" worktree prune 2>/dev/null; rm -rf "$dir"' EXIT
cp -r "$tmpl" "$dir/m"
cd "$dir/m"
printf '{"session_id":"bench","hook_event_name":"SessionStart","cwd":"%s"}' "$PWD" >"$dir/start.json"
printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$PWD" >"$dir/stop.json"
sed -i 's|// Add adds.|// Add adds two ints.|' p3/p.go
if [ "$bin" = gates ]; then
	go test -count=1 ./... >/dev/null
	exit 0
fi
"$bin" after-edit --session-start <"$dir/start.json"
"$bin" stop-hook <"$dir/stop.json" >/dev/null 2>&1
SIDE
chmod 755 "$work/side.sh"

: >"$work/runs"
for i in $(seq 0 "$n"); do # run 0 warms up and is not counted
	for side in gates old new; do
		bin=gates
		[ "$side" = old ] && bin=$work/gauntlet-old
		[ "$side" = new ] && bin=$g
		read -r wall _ <<<"$("$root/bin/measure" "$work/side.sh" "$bin" "$tmpl" 2>/dev/null)"
		[ "$i" = 0 ] || echo "$side $wall" >>"$work/runs"
	done
done
med() { awk -v s="$1" '$1 == s { print $2 }' "$work/runs" | median; }
gates=$(med gates) old=$(med old) new=$(med new)
awk -v g="$gates" -v o="$old" -v n="$new" -v ref="$base_ref" 'BEGIN {
	printf "first stop, no stored base, 300 tests (medians of %s): gates alone %.2fs\n", "'"$n"'", g
	printf "  before (%s): %.2fs = %.2fx the gates\n", ref, o, o / g
	printf "  now:            %.2fs = %.2fx the gates (goal <= 1.5)\n", n, n / g
}'
