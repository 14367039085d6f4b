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
}

// gofmtFlags finds gofmt wherever it is written, even inside $(...) or quotes, which the command
// splitter does not look into: `[ -z "$(gofmt -s -l .)" ]` is the usual way to check.
var gofmtFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bgofmt((?:\s+-[a-z]+)*)`) })

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
		for _, m := range gofmtFlags().FindAllStringSubmatch(d.script, -1) {
			use := gofmt[d.dir]
			use.source = firstNonEmpty(use.source, d.source)
			if strings.Contains(m[1], "-s") {
				use.simplify = firstNonEmpty(use.simplify, d.source)
			}
			gofmt[d.dir] = use
		}
		for _, cmd := range splitCommands(d.script) {
			c, ok := classify(cmd.words)
			if !ok {
				continue
			}
			dir := d.dir
			if cmd.cd != "" {
				dir = cleanDir(path.Join(dir, cmd.cd))
			}
			out = append(out, found{check: c, dir: dir, source: d.source, rank: d.rank, env: append(slices.Clip(d.env), cmd.env...),
				inferred: d.inferred, paths: d.paths})
		}
	}
	return out, gofmt
}

// pick builds the gate for one tool from the most preferred source that runs it. Several
// commands of that tool in the one source (a tox env running pyright twice) are run one after the
// other; the same tool elsewhere is the same work, named in the comment but not run again.
func (c *dirContext) pick(key string) (Gate, bool) {
	var first *found
	var cmds, fixes, others []string
	var goTests [][]string
	for i := range c.found {
		f := &c.found[i]
		if f.key != key {
			continue
		}
		if first == nil {
			first = f
		}
		cmd := strings.Join(quoteAll(f.words), " ")
		switch {
		case f.source == first.source:
			if !contains(cmds, cmd) {
				cmds = append(cmds, cmd)
				goTests = append(goTests, f.words)
				if fix := strings.Join(quoteAll(f.fix), " "); f.fix != nil && !contains(fixes, fix) {
					fixes = append(fixes, fix)
				}
			}
		case !contains(others, f.source):
			others = append(others, f.source)
		}
	}
	if first == nil {
		return Gate{}, false
	}
	// A test runner several times in one source is a CI matrix or a list of special cases:
	// one run of the suite is the gate. go test merges its package groups; cargo takes the first
	// run over the whole workspace (features included), else the first.
	switch {
	case key == "go-test" && len(goTests) > 1:
		cmds = []string{strings.Join(quoteAll(mergeGoTests(goTests)), " ")}
	case (key == "cargo-test" || key == "pytest") && len(cmds) > 1:
		best := cmds[0]
		for i, w := range goTests {
			if key == "cargo-test" && (slices.Contains(w, "--workspace") || slices.Contains(w, "--all")) {
				best = cmds[i]
				break
			}
		}
		cmds = []string{best}
	}
	src := "from " + first.source
	if len(others) > 0 {
		if len(others) > 2 {
			others = append(others[:2], "...")
		}
		src += "; also in " + strings.Join(others, ", ")
	}
	g := Gate{Name: first.name, Comment: first.comment, Run: strings.Join(cmds, " && "),
		Timeout: first.timeout, Hint: first.hint, Source: src, Env: first.env, Inferred: first.inferred, Paths: first.paths}
	if len(fixes) == len(cmds) {
		// Each command has its writing form; a fixer that covers only some of them would leave
		// the gate failing after `gauntlet fix`.
		g.Fix = strings.Join(fixes, " && ")
	}
	return g, true
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
