package scaffold

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// found is a check the project declares, with where it runs and where it is written.
type found struct {
	check
	env    []EnvVar
	dir    string
	source string
	rank   int
	// inferred: declared only where the project does not run it (a tox env no CI job runs).
	inferred bool
	paths    []string // the files it runs on (declared.paths)
	exclude  []string // the files it leaves out (declared.exclude)
	// fixer: found in a formatting target that only rewrites (fmt: gofmt -w), which says how
	// the project formats, not that it checks.
	fixer bool
}

// gofmtFlags finds gofmt wherever it is written, even inside $(...) or quotes, which the command
// splitter does not look into: `[ -z "$(gofmt -s -l .)" ]` is the usual way to check; a flag may
// be quoted (GOFMT ?= gofmt "-s").
var gofmtFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bgofmt((?:\s+["']?-[a-z]+["']?)*)`) })

// gofmtUse is where a folder's project runs gofmt, found even where the command splitter does
// not look (inside $(shell ...)): "" when nowhere.
type gofmtUse struct{ source, simplify string }

// recognise turns every declared script into the checks it runs, most preferred source first,
// and says per folder where gofmt (and gofmt -s) is run.
func recognise(decls []declared) ([]found, map[string]gofmtUse) {
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].rank < decls[j].rank })
	var out []found
	gofmt := map[string]gofmtUse{}
	for _, d := range decls {
		// A formatting target that only rewrites (fmt: gofmt -w) says the project formats with
		// gofmt, not that it checks the formatting: its check is offered, not gated.
		if d.fixer {
			out = append(out, checksOf(d)...)
			continue
		}
		if use := gofmtUsed(gofmt[d.dir], d); use != (gofmtUse{}) {
			gofmt[d.dir] = use
		}
		out = append(out, checksOf(d)...)
	}
	return out, gofmt
}

// gofmtUsed adds where a declared script runs gofmt (and gofmt -s) to what use says already.
func gofmtUsed(use gofmtUse, d declared) gofmtUse {
	for _, m := range gofmtFlags().FindAllStringSubmatch(d.script, -1) {
		use.source = firstNonEmpty(use.source, d.source)
		if strings.Contains(m[1], "-s") {
			use.simplify = firstNonEmpty(use.simplify, d.source)
		}
	}
	return use
}

// checksOf are the checks a declared script runs, each in the folder it runs in.
func checksOf(d declared) []found {
	out := pipedChecks(d)
	for _, cmd := range splitCommands(d.script) {
		c, ok := classify(cmd.words)
		if !ok {
			c, ok = projectScriptCheck(d, cmd.words)
		}
		if whole, byScript := scriptItself(d, cmd.words); byScript {
			c, ok = whole, true
		}
		if !ok {
			continue
		}
		if c.filesNote != "" {
			// A tool given {files} runs from where the project runs it (npx markdownlint-cli2).
			c.words = slices.Concat(cmd.words[:len(cmd.words)-len(withoutRunner(cmd.words))], c.words)
		}
		if d.viaMake != "" && c.key != "gofmt" {
			// The command lost what make computes for it: the target runs it whole.
			c.words, c.fix, c.filesNote = []string{"make", d.viaMake}, nil, ""
		}
		dir := d.dir
		if cmd.cd != "" {
			dir = cleanDir(path.Join(dir, cmd.cd))
		}
		out = append(out, found{check: c, dir: dir, source: d.source, rank: d.rank, env: append(slices.Clip(d.env), cmd.env...),
			inferred: d.inferred || d.fixer, paths: d.paths, exclude: d.exclude, fixer: d.fixer})
	}
	return out
}

// pipedChecks are the checks of a declared script's lines that list files for a tool
// (pipedFileTool).
func pipedChecks(d declared) []found {
	var out []found
	for _, line := range strings.Split(d.script, "\n") {
		if c, ok := pipedFileTool(splitCommands(line)); ok {
			out = append(out, found{check: c, dir: d.dir, source: d.source, rank: d.rank, env: d.env, inferred: d.inferred,
				paths: d.paths, exclude: d.exclude})
		}
	}
	return out
}

// pick builds the gate for one tool from the most preferred source that runs it. Several
// commands of that tool in the one source (a tox env running pyright twice) are run one after the
// other; the same tool elsewhere is the same work, named in the comment but not run again.
func (c *dirContext) pick(key string) (Gate, bool) {
	var pk picked
	for i := range c.found {
		if c.found[i].key == key {
			pk.add(&c.found[i])
		}
	}
	first := pk.first
	if first == nil {
		return Gate{}, false
	}
	cmds := oneSuiteRun(key, pk.cmds, pk.words)
	g := Gate{Name: first.name, Comment: first.comment, Run: strings.Join(cmds, " && "),
		Timeout: first.timeout, Hint: first.hint, Source: sourceComment(first.source, pk.others), Env: first.env,
		Inferred: first.inferred, Paths: first.paths, Exclude: first.exclude}
	g.Source += otherSuiteRuns(key, pk.words)
	if len(pk.fixes) == len(cmds) {
		// Each command has its writing form; a fixer that covers only some of them would leave
		// the gate failing after `gauntlet fix`.
		g.Fix = strings.Join(pk.fixes, " && ")
	}
	return g, true
}

// picked is one tool's commands in its most preferred source (the first), their words and
// writing forms, and the other sources that run it.
type picked struct {
	first               *found
	cmds, fixes, others []string
	words               [][]string
}

func (pk *picked) add(f *found) {
	if pk.first == nil {
		pk.first = f
	}
	cmd := strings.Join(quoteAll(f.words), " ")
	switch {
	case f.source == pk.first.source:
		if contains(pk.cmds, cmd) {
			return
		}
		pk.cmds = append(pk.cmds, cmd)
		pk.words = append(pk.words, f.words)
		if fix := strings.Join(quoteAll(f.fix), " "); f.fix != nil && !contains(pk.fixes, fix) {
			pk.fixes = append(pk.fixes, fix)
		}
	case !contains(pk.others, f.source):
		pk.others = append(pk.others, f.source)
	}
}

// oneSuiteRun: a test runner several times in one source is a CI matrix or a list of special
// cases: one run of the suite is the gate. go test merges its package groups; cargo takes the
// first run over the whole workspace (features included), else the first.
func oneSuiteRun(key string, cmds []string, words [][]string) []string {
	switch {
	case key == "go-test" && len(words) > 1:
		return []string{strings.Join(quoteAll(mergeGoTests(words)), " ")}
	case (key == "cargo-test" || key == "pytest") && len(cmds) > 1:
		return []string{cmds[suiteRun(key, words)]}
	}
	return cmds
}

// otherSuiteRuns names, for a source that runs cargo's whole-workspace suite or pytest more than
// once, the runs the gate is not: each builds the code with other features, or runs the tests
// with other options (pytest -m jupyter after installing that extra), which the gate's run does
// not. Runs of a few cargo tests (--bin rg NAME) are parts of the suite and are not named.
func otherSuiteRuns(key string, words [][]string) string {
	if key != "cargo-test" && key != "pytest" || len(words) < 2 {
		return ""
	}
	chosen := suiteRun(key, words)
	var others []string
	for i, w := range words {
		if i != chosen && (key == "pytest" || wholeWorkspace(w)) && !slices.Equal(w, words[chosen]) {
			others = append(others, "`"+strings.Join(quoteAll(w), " ")+"`")
		}
	}
	if len(others) == 0 {
		return ""
	}
	add := "add it as a gate"
	if len(others) > 1 {
		add = "add them as gates"
	}
	what := "other features"
	if key == "pytest" {
		what = "other options"
	}
	return "; there the suite also runs as " + joinAnd(others) + " (" + what + ": " + add + " to check those too)"
}

// suiteRun is which of a runner's commands is the suite: cargo's first over the whole workspace
// (features included), else the first.
func suiteRun(key string, words [][]string) int {
	if i := slices.IndexFunc(words, wholeWorkspace); key == "cargo-test" && i >= 0 {
		return i
	}
	return 0
}

// wholeWorkspace reports whether a cargo command runs over every member of the workspace.
func wholeWorkspace(w []string) bool {
	return slices.Contains(w, "--workspace") || slices.Contains(w, "--all")
}

// sourceComment says where the check is declared, and the first two other places that run it.
func sourceComment(first string, others []string) string {
	src := "from " + first
	if others = byFile(others); len(others) > 0 {
		if len(others) > 2 {
			others = append(others[:2], "...")
		}
		src += "; also in " + strings.Join(others, ", ")
	}
	return src
}

// byFile names the targets of one file together: "Makefile, target lint-go" and "Makefile,
// target fmt" are "Makefile, targets lint-go and fmt".
func byFile(sources []string) []string {
	var out []string
	at, names := map[string]int{}, map[string][]string{}
	for _, s := range sources {
		file, target, ok := strings.Cut(s, ", target ")
		if !ok {
			out = append(out, s)
			continue
		}
		i, seen := at[file]
		if !seen {
			i, at[file] = len(out), len(out)
			out = append(out, "")
		}
		names[file] = append(names[file], target)
		if len(names[file]) == 1 {
			out[i] = s
		} else {
			out[i] = file + ", targets " + joinAnd(names[file])
		}
	}
	return out
}

// sourceOf names where a tool handled specially (gofmt, go mod tidy) is declared, or "".
func (c *dirContext) sourceOf(key string) string {
	for _, f := range c.found {
		if f.key == key {
			return "from " + f.source
		}
	}
	return ""
}

// checkSourceOf is sourceOf among the places that check, not those that only format.
func (c *dirContext) checkSourceOf(key string) string {
	for _, f := range c.found {
		if f.key == key && !f.fixer {
			return "from " + f.source
		}
	}
	return ""
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(w)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
