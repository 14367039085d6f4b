#!/usr/bin/env bash
# A gate given the change's files ({files}) against the same gate on the whole project, on two
# real repositories after a one-file edit:
#   ts: TanStack/query (a pnpm monorepo, 2,371 files): eslint on packages/query-core (the
#       package's own `eslint ./src`) and prettier on the whole repository (`prettier --check .`);
#   go: golang/tools (2,844 files, 1,932 .go): gofmt on every .go file outside testdata, the
#       same gate with `--all` (every tracked file that matches its paths); and the stop itself,
#       a new one-file edit before each `gauntlet stop-hook`, against a stop whose gate runs
#       gofmt on every file.
# Each comparison alternates the two (A B A B ..., N pairs after one warm-up pair) under
# bench/measure and prints the medians of wall and CPU time (user + system, the gate's processes
# included) and their ratios; `gauntlet run --no-cache GATE` gives a {files} gate the edited
# file only. The repositories are cloned at the commits pinned below; the TypeScript tools are
# installed from the npm registry (pnpm 10, the lockfile's versions, the root's devDependencies
# only). A part whose tools or network are missing is skipped, saying so.
# Usage: bench/proportional.sh   (N=5 pairs; ONLY=ts or ONLY=go for one part; TS_ROWS=eslint or
# TS_ROWS=prettier for one row of ts; CLONES=DIR keeps the clones and node_modules between runs;
# TSQ_SRC= / GOTOOLS_SRC= clone from elsewhere, such as a local mirror)
set -euo pipefail
n=${N:-5}
only=${ONLY:-ts go}
tsq_src=${TSQ_SRC:-https://github.com/TanStack/query.git}
tsq_commit=40321a0b1b3bdd0afa11f0e439642ab84cdf6afe
gotools_src=${GOTOOLS_SRC:-https://github.com/golang/tools.git}
gotools_commit=8f0f8c7bde0eea32e01e570a0e330c60a0cbaecc
pnpm_version=10.34.9
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
clones=${CLONES:-$work/clones}
mkdir -p "$clones"

# checkout SRC COMMIT DIR: DIR at COMMIT (kept if already there). media/ is left out: images,
# which no gate here reads and a mirror may hold only as pointers.
checkout() {
	local src=$1 commit=$2 dir=$3
	if [ ! -d "$dir/.git" ]; then
		timeout 900 git clone -q --no-checkout "$src" "$dir" 2>"$work/clone.err" || return 1
	fi
	git -C "$dir" sparse-checkout set --no-cone '/*' '!/media/'
	git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null || return 1
	git -C "$dir" checkout -q --detach "$commit" 2>/dev/null ||
		git -C "$dir" -c advice.detachedHead=false checkout -q -f --detach "$commit"
	git -C "$dir" reset -q --hard
	printf '.gauntlet.yml\n.gauntlet/\n' >"$dir/.git/info/exclude"
}

# edit DIR FILE: the one-file edit, a comment appended (the tools accept it as it is).
edit() { printf '\n// bench: one-file edit\n' >>"$1/$2"; }

# pair LABEL DIR GATE_A ARGS_B: `run --no-cache GATE_A` against `run --no-cache ARGS_B`.
pair() {
	local label=$1 dir=$2 a=$3 b=$4
	# shellcheck disable=SC2046 # compare's result is a word list
	row "$label" "" $(compare "$n" "-dir $dir $g run --no-cache $a" "-dir $dir $g run --no-cache $b")
}

for part in $only; do
	case $part in
	ts)
		echo
		if ! command -v npm >/dev/null 2>&1; then
			echo "bench/proportional.sh: ts skipped: npm is not installed"
			continue
		fi
		dir=$clones/tanstack-query
		if ! checkout "$tsq_src" "$tsq_commit" "$dir"; then
			echo "bench/proportional.sh: ts skipped: cannot clone $tsq_src at $tsq_commit: $(tail -2 "$work/clone.err" 2>/dev/null)"
			continue
		fi
		if [ ! -x "$dir/node_modules/.bin/eslint" ]; then
			# The repository asks for pnpm 11, which needs Node 22.13; pnpm 10 installs the same
			# lockfile. Only the root's devDependencies: eslint, its plugins, prettier, typescript.
			if ! timeout 300 npm install --prefix "$clones/pnpm" --no-audit --no-fund "pnpm@$pnpm_version" >"$work/npm.log" 2>&1; then
				echo "bench/proportional.sh: ts skipped: npm could not install pnpm: $(tail -3 "$work/npm.log")"
				continue
			fi
			sed -i 's/"pnpm": ">=11[0-9.]*"/"pnpm": ">=10"/; s/"packageManager": "pnpm@[0-9.]*"/"packageManager": "pnpm@'"$pnpm_version"'"/' "$dir/package.json"
			if ! (cd "$dir" && timeout 1800 "$clones/pnpm/node_modules/.bin/pnpm" install --frozen-lockfile --filter root \
				--config.manage-package-manager-versions=false) >"$work/pnpm.log" 2>&1; then
				echo "bench/proportional.sh: ts skipped: pnpm install failed: $(tail -3 "$work/pnpm.log")"
				continue
			fi
		fi
		# The package.json edit for pnpm 10 is committed, so the base (HEAD) leaves the one edit.
		if [ -n "$(git -C "$dir" status --porcelain -- package.json)" ]; then
			git -C "$dir" -c commit.gpgsign=false commit -q --no-verify -m 'bench: pnpm 10' -- package.json
		fi
		# prettier reads .gitignore and .prettierignore, not .git/info/exclude, where the bench's
		# .gauntlet.yml and .gauntlet/ are kept out of the change.
		ignore='--ignore-path .gitignore --ignore-path .prettierignore --ignore-path .git/info/exclude'
		cat >"$dir/.gauntlet.yml" <<EOF
version: 1
base: HEAD
gates:
  eslint-files:
    run: ../../node_modules/.bin/eslint {files}
    dir: packages/query-core
    paths: ["packages/query-core/src/**/*.{ts,tsx}"]
  eslint-all:
    run: ../../node_modules/.bin/eslint ./src
    dir: packages/query-core
  prettier-files:
    run: node_modules/.bin/prettier --check --ignore-unknown $ignore {files}
  prettier-all:
    run: node_modules/.bin/prettier --check --ignore-unknown $ignore .
EOF
		edit "$dir" packages/query-core/src/query.ts
		# The change is that one file, and each {files} gate is given it alone.
		[ "$(git -C "$dir" status --porcelain | wc -l)" = 1 ] || die "ts: the change is not one file: $(git -C "$dir" status --porcelain)"
		[ "$(cd "$dir" && "$g" list | grep -c '{files}: 1 file ')" = 2 ] || die "ts: the {files} gates are not given one file: $(cd "$dir" && "$g" list)"
		header "TanStack/query $(git -C "$dir" rev-parse --short=12 "$tsq_commit"), $(git -C "$dir" ls-files | wc -l) files, one .ts file edited"
		case " ${TS_ROWS:-eslint prettier} " in *" eslint "*)
			pair "eslint {files} vs eslint ./src (packages/query-core)" "$dir" eslint-files eslint-all ;;
		esac
		case " ${TS_ROWS:-eslint prettier} " in *" prettier "*)
			pair "prettier --check {files} vs prettier --check . (repository)" "$dir" prettier-files prettier-all ;;
		esac
		echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
		git -C "$dir" reset -q --hard
		;;
	go)
		echo
		if ! command -v gofmt >/dev/null 2>&1; then
			echo "bench/proportional.sh: go skipped: gofmt is not installed"
			continue
		fi
		dir=$clones/golang-tools
		if ! checkout "$gotools_src" "$gotools_commit" "$dir"; then
			echo "bench/proportional.sh: go skipped: cannot clone $gotools_src at $gotools_commit: $(tail -2 "$work/clone.err" 2>/dev/null)"
			continue
		fi
		# testdata holds Go files that are malformed or unformatted on purpose.
		cat >"$dir/.gauntlet.yml" <<'EOF'
version: 1
base: HEAD
gates:
  gofmt:
    run: test -z "$(gofmt -l {files})"
    paths: ["**/*.go"]
    exclude: ["**/testdata/**"]
EOF
		edit "$dir" go/packages/packages.go
		[ "$(git -C "$dir" status --porcelain | wc -l)" = 1 ] || die "go: the change is not one file: $(git -C "$dir" status --porcelain)"
		(cd "$dir" && "$g" list) | grep -q '{files}: 1 file ' || die "go: the gate is not given one file: $(cd "$dir" && "$g" list)"
		header "golang/tools $(git -C "$dir" rev-parse --short=12 "$gotools_commit"), $(git -C "$dir" ls-files | wc -l) files ($(git -C "$dir" ls-files '*.go' ':!:**/testdata/**' | wc -l) .go outside testdata), one .go file edited"
		pair "gofmt -l {files} vs the same gate with --all" "$dir" gofmt "--all gofmt"
		# The stop: a session pinned at the commit, then each timed call makes a new one-file edit
		# (a state never judged before, so no verdict comes from the cache) and stops. Against the
		# same stop in a second worktree whose gate formats every file without {files}.
		whole=$dir-whole
		[ -d "$whole" ] || git -C "$dir" worktree add -q --detach "$whole" "$gotools_commit"
		git -C "$whole" reset -q --hard
		cat >"$whole/.gauntlet.yml" <<'EOF'
version: 1
base: HEAD
gates:
  gofmt:
    run: test -z "$(git ls-files -z -- '*.go' ':!:**/testdata/**' | xargs -0 gofmt -l)"
EOF
		# stop.sh DIR: a new edit of one file ($$ differs on every call), then a stop.
		printf '#!/bin/sh\nprintf '"'"'// edit %%s\\n'"'"' "$$" >>"$1/go/packages/packages.go"\ncd "$1" && exec %s stop-hook <"$1/.gauntlet/payload.json"\n' "$g" >"$work/stop.sh"
		chmod +x "$work/stop.sh"
		edit "$whole" go/packages/packages.go # as in $dir: gofmt wants the blank line it starts with
		for t in "$dir" "$whole"; do
			mkdir -p "$t/.gauntlet"
			printf '{"session_id":"bench","hook_event_name":"SessionStart","cwd":"%s"}' "$t" | (cd "$t" && "$g" after-edit --session-start)
			printf '{"session_id":"bench","hook_event_name":"Stop","cwd":"%s"}' "$t" >"$t/.gauntlet/payload.json"
		done
		: >"$work/a.err"
		: >"$work/b.err"
		# shellcheck disable=SC2046 # compare's result is a word list
		row "stop after an edit: {files} vs gofmt -l on every file" "" $(compare "$n" "$work/stop.sh $dir" "$work/stop.sh $whole")
		! grep -q '"decision"' "$work/a.err" "$work/b.err" || die "go: a stop did not allow: $(grep -h decision "$work/a.err" "$work/b.err" | head -1)"
		for e in a b; do
			[ "$(grep -c 'pass  *gofmt' "$work/$e.err")" -ge "$((n + 1))" ] || die "go: not every stop ran the gate: $(cat "$work/$e.err")"
		done
		git -C "$whole" reset -q --hard
		echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
		git -C "$dir" reset -q --hard
		;;
	*) die "ONLY: unknown part $part (ts, go)" ;;
	esac
done
