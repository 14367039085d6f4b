# Shared by the bench scripts: sourced, never run. It builds gauntlet as `make build` does
# (static, so no dynamic loader on every call) and the bench helpers, makes a scratch directory
# ($work, removed on exit), and defines the comparison every script reports with.
# shellcheck shell=bash
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o bin/gauntlet ./cmd/gauntlet
for helper in measure spawn; do
	CGO_ENABLED=0 go build -tags bench -trimpath -ldflags '-s -w' -o "bin/$helper" "./bench/$helper"
done
# Each copied once, so that it runs from a file written as a package manager or an archive writes
# it, as lefthook and prek (unpacked by npm) and git run: the linker writes its output through a
# memory map, and a binary fresh from it started about 1 ms slower on every call (`gauntlet
# version`, 100 rotations) until the page cache dropped it.
for bin in gauntlet measure spawn; do
	cp "bin/$bin" "bin/$bin.copy" && mv "bin/$bin.copy" "bin/$bin"
done
g=$root/bin/gauntlet
work=$(mktemp -d)
trap 'pkill -f "$work" 2>/dev/null || true; rm -rf "$work"' EXIT
# A stop hook called from inside a gate allows at once; the bench must see the real path.
unset GAUNTLET
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com \
	GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

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
		git -c commit.gpgsign=false commit -q --no-verify -m bench
	)
}

row() { # row LABEL GOAL wall_a wall_b wall_ratio cpu_a cpu_b cpu_ratio
	printf '%-58s %9.1f %9.1f %6.2f   %9.1f %9.1f %6.2f   %s\n' "$1" "$3" "$4" "$5" "$6" "$7" "$8" "$2"
}

header() { # header TITLE
	echo "$1, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $n alternating pairs per row (medians)"
	printf '%-58s %9s %9s %6s   %9s %9s %6s   %s\n' "A vs B" "A wall ms" "B wall ms" ratio "A cpu ms" "B cpu ms" ratio goal
}
