#!/usr/bin/env bash
# gauntlet against the hook runners people also gate with, in the same run: lefthook and prek,
# installed from npm into a scratch prefix (pinned below; skipped, saying so, when npm or the
# registry cannot be reached), and bench/spawn, a minimal Go program that starts the commands at
# once and waits. Each tool runs N trivial commands (`true`) in a committed repository:
#   0. start-up: `--version` of each, against gauntlet's (goal: gauntlet's at or below theirs);
#   1. 8 commands: each tool against gauntlet, alternating, CPU and wall medians and ratios
#      (goal: gauntlet ahead of lefthook and prek, and <= 1.3x bench/spawn);
#   2. 200 commands: the per-command overhead of each tool, (time of 200 - time of 1) / 199
#      (goal: gauntlet's at or below theirs).
# Every tool is checked once, outside the timing, to really run every command.
# Usage: bench/tools.sh   (N=11 pairs by default)
set -euo pipefail
n=${N:-11}
lefthook_version=2.2.2
prek_version=0.5.3
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

tools=$work/tools
if ! command -v npm >/dev/null 2>&1; then
	echo "bench/tools.sh: skipped: npm is not installed"
	exit 0
fi
if ! timeout 300 npm install --prefix "$tools" --no-audit --no-fund --ignore-scripts \
	"lefthook@$lefthook_version" "@j178/prek@$prek_version" >"$work/npm.log" 2>&1; then
	echo "bench/tools.sh: skipped: npm could not install lefthook and prek: $(tail -3 "$work/npm.log")"
	exit 0
fi
# The native binaries the npm packages ship: their .bin entries are node scripts that start them,
# which would add node's start-up (about 100 ms) to every run.
native() { find "$tools/node_modules" -type f -perm -u+x -name "$1" -size +1M | head -1; }
lefthook=$(native lefthook)
prek=$(native prek)
[ -n "$lefthook" ] && [ -n "$prek" ] || die "no native lefthook or prek binary under $tools/node_modules"

# project DIR COUNT COMMAND: one committed repository configuring COUNT runs of COMMAND for each
# tool: gauntlet's gates (jobs: 8), a lefthook hook with parallel commands, prek's local system
# hooks that always run without file names.
project() {
	local dir=$1 count=$2 cmd=$3 i
	mkdir -p "$dir"
	{
		echo "version: 1"
		echo "jobs: 8"
		echo "gates:"
		for i in $(seq "$count"); do printf '  g%d:\n    run: %s\n' "$i" "'$cmd'"; done
	} >"$dir/.gauntlet.yml"
	{
		echo "bench:"
		echo "  parallel: true"
		echo "  commands:"
		for i in $(seq "$count"); do printf '    g%d:\n      run: %s\n' "$i" "'$cmd'"; done
	} >"$dir/lefthook.yml"
	{
		echo "repos:"
		echo "  - repo: local"
		echo "    hooks:"
		for i in $(seq "$count"); do
			printf '      - id: g%d\n        name: g%d\n        entry: sh -c %s\n        language: system\n        pass_filenames: false\n        always_run: true\n' "$i" "$i" "\"$cmd\""
		done
	} >"$dir/.pre-commit-config.yaml"
	printf '.gauntlet/\n' >"$dir/.gitignore"
	(cd "$dir" && git init -q && git add -A && git -c commit.gpgsign=false commit -q --no-verify -m bench)
}

# Each tool runs every command: checked once, with a command that counts.
check() {
	local count=$1 tool got
	project "$work/check$count" "$count" "echo ran >> $work/ran"
	for tool in gauntlet lefthook prek; do
		: >"$work/ran"
		case $tool in
		gauntlet) (cd "$work/check$count" && "$g" run --color never >/dev/null) ;;
		lefthook) (cd "$work/check$count" && "$lefthook" run bench >/dev/null) ;;
		prek) (cd "$work/check$count" && "$prek" run --all-files >/dev/null) ;;
		esac
		got=$(wc -l <"$work/ran")
		[ "$got" -eq "$count" ] || die "$tool ran $got of $count commands"
	done
}

cmd_of() { # cmd_of TOOL DIR: the measure arguments that run TOOL in DIR
	case $1 in
	gauntlet) echo "-dir $2 $g run --color never" ;;
	lefthook) echo "-dir $2 $lefthook run bench" ;;
	prek) echo "-dir $2 $prek run --all-files" ;;
	esac
}

for count in 1 8 200; do
	project "$work/p$count" "$count" true
	check "$count"
done

header "gauntlet vs lefthook $lefthook_version and prek $prek_version (A is the other tool)"
# 0. Start-up: each tool printing its version, nothing else (--version: what all three take).
for tool in lefthook prek; do
	read -r wa wb wr ca cb cr _ < <(compare "$n" "${!tool} --version" "$g --version")
	row "0. start-up (--version): $tool vs gauntlet" ">= 1 (gauntlet ahead)" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
done
for tool in lefthook prek; do
	read -r wa wb wr ca cb cr _ < <(compare "$n" "$(cmd_of "$tool" "$work/p8")" "$(cmd_of gauntlet "$work/p8")")
	row "1. 8 commands of true: $tool vs gauntlet" ">= 1 (gauntlet ahead)" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"
done
spawn8="$root/bin/spawn true true true true true true true true"
read -r wa wb wr ca cb cr _ < <(compare "$n" "$(cmd_of gauntlet "$work/p8")" "$spawn8")
row "1. 8 commands of true: gauntlet vs bench/spawn" "<= 1.3" "$wa" "$wb" "$wr" "$ca" "$cb" "$cr"

# 2. Per-command overhead: each tool's 200-command run against its own 1-command run.
echo "2. per-command overhead, (200 commands - 1 command) / 199, medians of $n alternating pairs"
printf '%-12s %12s %12s %16s %16s\n' tool "wall ms/cmd" "cpu ms/cmd" "wall ms (1; 200)" "cpu ms (1; 200)"
for tool in gauntlet lefthook prek; do
	read -r w200 w1 _ c200 c1 _ _ < <(compare "$n" "$(cmd_of "$tool" "$work/p200")" "$(cmd_of "$tool" "$work/p1")")
	awk -v t="$tool" -v w200="$w200" -v w1="$w1" -v c200="$c200" -v c1="$c1" \
		'BEGIN { printf "%-12s %12.3f %12.3f %16s %16s\n", t, (w200 - w1) / 199, (c200 - c1) / 199, sprintf("%.1f; %.1f", w1, w200), sprintf("%.1f; %.1f", c1, c200) }'
done
echo "   goal: gauntlet's per-command overhead at or below lefthook's and prek's"
