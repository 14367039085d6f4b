// Package scaffold looks at a repository to see what kind of projects it holds (Go, Node, Python,
// Rust, Make) and writes a commented starting .gauntlet.yml whose gates fit them.
package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Gate is one gate of the written config.
type Gate struct {
	Name    string // unique in the config and valid as a gate name once Layout has run
	Comment string // one line saying what the gate checks
	Run     string // shell command
	// Env is what the gate's command needs in its environment, as CI sets it.
	Env []EnvVar
	// Format is the findings parser of the tool the command runs when the command does not name
	// it (a package script that runs vitest): "" leaves it to detection from the command.
	Format string
	// Fix is the writing form of the same tool, the command that repairs what Run finds
	// (gofmt -w for gofmt -l, the project's lint:fix for its lint); "" when there is none.
	Fix     string
	Dir     string // slash-separated, relative to the root; "" is the root itself
	Paths   []string
	Timeout time.Duration
	Hint    string
	Exclude []string
	// Glob narrows the files {files} gives the gate (see gates.Gate.Glob).
	Glob []string
	// Coverage is the gate's coverage: key (auto for a go test gauntlet asks for its profile).
	Coverage string
	Source   string // where the project declares this check: "from .github/workflows/ci.yml, job test"
	// Inputs, when set, are every file the gate's result depends on (root-relative globs): the
	// gate is written with `cache: true`, so that a pass is reused until one of them changes.
	Inputs []string
	// EnvNote, when set, says why the command runs its tool from PATH rather than through the
	// project's environment runner (uv run) the other gates use.
	EnvNote string
	// CacheNote, when set, says how and why init changed the command for the tool's own cache.
	CacheNote string
	// FilesNote, when set, says why the command is given the change's files ({files}).
	FilesNote string
	// Needs are the gates (by their name in the project, before Layout) that must finish first:
	// a gate that builds what another gate builds too must not run beside it.
	Needs []string
	// Inferred says the project runs this check nowhere: it is gauntlet's default, or a tool's
	// config that no script, hook or CI job runs. When the project declares checks of its own,
	// an inferred gate is offered in a comment instead of gated.
	Inferred bool
	// Tests is the root-relative JUnit report the project's own config has the test runner
	// write, when gauntlet cannot ask the runner for its census (see testReports); TestsNote
	// says which config.
	Tests, TestsNote string
}

// EnvVar is one environment variable of a gate.
type EnvVar struct{ Name, Value string }

// Project is one detected project: a directory and the tool chain found in it.
type Project struct {
	Dir   string // slash-separated, relative to the root; "" is the root itself
	Kind  string // Go, Node, Python, Rust, Java or Make
	Tool  string // the package manager or runner in use, when it matters (pnpm, uv, ...)
	Gates []Gate // names without the directory prefix; Layout adds it
	// Offers are checks gauntlet would suggest but the project does not run (its own defaults,
	// a tool's config that nothing runs): written commented out, for the maintainer to take.
	Offers []Gate
	Notes  []string
}

// Label names the project for people: "Node with pnpm (web)".
func (p Project) Label() string {
	s := p.Kind
	if p.Tool == "workspace" {
		s += " workspace"
	} else if p.Tool != "" {
		s += " with " + p.Tool
	}
	if p.Dir != "" {
		s += " (" + p.Dir + ")"
	}
	return s
}

// detector inspects one directory for one ecosystem and returns nil when it is not there.
type detector func(c *dirContext) *Project

// dirContext is one folder being looked at, with the checks the repository declares for it.
type dirContext struct {
	root, abs, rel string
	found          []found
	decls          []declared // every script declared to run in this folder
	gofmtSource    string     // the source of a gofmt the project runs, "" when none
	gofmtSimplify  string     // the source of a gofmt -s the project runs, "" when none
}

// languages are tried in every directory; Make comes after them because a Makefile usually wraps
// the same tools.
var languages = []detector{detectGo, detectNode, detectPython, detectRust, detectJava}

// Detect looks at root and at each directory directly under it, leaving out hidden directories,
// node_modules and vendor. Projects come root first, then by directory name.
func Detect(root string) ([]Project, error) {
	dirs, err := projectFolders(root)
	if err != nil {
		return nil, err
	}
	decls := readDeclared(root, dirs)
	checks, gofmt := recognise(decls)
	var projects []Project
	for _, d := range dirs {
		c := &dirContext{root: root, abs: filepath.Join(root, filepath.FromSlash(d)), rel: d,
			gofmtSource: gofmt[d].source, gofmtSimplify: gofmt[d].simplify}
		c.found = inFolder(checks, func(f found) string { return f.dir }, d)
		c.decls = inFolder(decls, func(dc declared) string { return dc.dir }, d)
		projects = append(projects, detectDir(c)...)
	}
	left := leftOutChecks(decls)
	anyToolGates(&projects, checks)
	fileToolGates(&projects, checks, left)
	noteOrphanChecks(projects, checks, left)
	noteLeftOut(projects, left)
	for _, pass := range projectPasses {
		pass(root, projects)
	}
	if note := preCommitUnmapped(root).note(); note != "" && len(projects) > 0 {
		projects[0].Notes = append(projects[0].Notes, note)
	}
	return projects, nil
}

// projectPasses are what Detect does to the projects found, in order: offer what the project
// runs nowhere, fit the timeouts to the size, scope the gates to their files, let the tools'
// caches work, give per-file tools the change's files, find the test reports, measure coverage.
var projectPasses = []func(root string, projects []Project){
	func(_ string, projects []Project) { offerInferred(projects) },
	scaleTimeouts,
	scope,
	toolCaches,
	changedFiles,
	testReports,
	func(_ string, projects []Project) { measureCoverage(projects) },
}

// projectFolders are the root ("") and each folder directly under it that may hold a project:
// not hidden, not node_modules or vendor, not a member of a workspace whose commands cover it.
func projectFolders(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("detect projects: %w", err)
	}
	members := workspaceMembers(root)
	dirs := []string{""}
	for _, e := range entries {
		if e.IsDir() && !skipDir(e.Name()) && !members[e.Name()] {
			dirs = append(dirs, e.Name())
		}
	}
	return dirs, nil
}

// inFolder are the items whose folder is dir.
func inFolder[T any](items []T, folder func(T) string, dir string) []T {
	var out []T
	for _, it := range items {
		if folder(it) == dir {
			out = append(out, it)
		}
	}
	return out
}

// noteOrphanChecks names the checks a folder runs whose tool belongs to no project there (a
// pre-commit prettier hook in a Python project, a Go linter in a folder without go.mod): no
// detector takes them, and a gate would run them without the project that installs them.
func noteOrphanChecks(projects []Project, checks []found, left map[string][]string) {
	for _, f := range checks {
		if f.kind == "" || f.kind == anyKind {
			continue
		}
		if slices.ContainsFunc(projects, func(p Project) bool { return p.Dir == f.dir && p.Kind == f.kind }) {
			continue
		}
		shown := "`" + strings.Join(quoteAll(f.words), " ") + "` (" + f.source + "; no " + f.kind + " project here to run it in)"
		if !contains(left[f.dir], shown) {
			left[f.dir] = append(left[f.dir], shown)
		}
	}
}

// noteLeftOut gives each folder's project the checks its folder runs that became no gate.
func noteLeftOut(projects []Project, left map[string][]string) {
	for _, dir := range sortedKeys(left) {
		i := slices.IndexFunc(projects, func(p Project) bool { return p.Dir == dir })
		if i < 0 {
			i = 0
		}
		if len(projects) == 0 {
			return
		}
		projects[i].Notes = append(projects[i].Notes, "the project also runs or declares checks that are no gate here "+
			"(init does not know them; add one by hand if the agent should pass it): "+strings.Join(left[dir], "; ")+".")
	}
}

// offerInferred moves the gates the project runs nowhere (gauntlet's defaults, a tool's config
// that nothing runs) to the offers, written commented out, when the project declares any check
// of its own: then those are what it means by "checked", and a gate it never runs would block
// agents on failures its maintainers never see. A project that declares nothing keeps them.
func offerInferred(projects []Project) {
	if !slices.ContainsFunc(projects, declaresCheck) {
		return
	}
	var unchecked [][]int // folders nothing checks, grouped by kind and defaults, in order
	group := map[string]int{}
	for i := range projects {
		p := &projects[i]
		p.Gates, p.Offers = splitInferred(p.Gates, p.Offers)
		if p.Dir != "" && len(p.Gates) == 0 && len(p.Offers) > 0 {
			key := p.Kind + "\x00" + p.Tool + "\x00" + defaultCommands(*p)
			if _, ok := group[key]; !ok {
				group[key] = len(unchecked)
				unchecked = append(unchecked, nil)
			}
			unchecked[group[key]] = append(unchecked[group[key]], i)
		}
	}
	for _, folders := range unchecked {
		noteUnchecked(projects, folders)
	}
}

// noteUnchecked names folders nothing checks (a fuzz crate, example modules) in one line, not a
// page of commented gates: on the folder's project when it is alone, else once for all of them,
// on the root's project of their kind when there is one.
func noteUnchecked(projects []Project, folders []int) {
	first := &projects[folders[0]]
	if len(folders) == 1 {
		first.Notes = append(first.Notes, defaultsNote(*first))
		first.Offers = nil
		return
	}
	var dirs []string
	for _, i := range folders {
		dirs = append(dirs, projects[i].Dir)
	}
	note := "no check that init knows runs in the folders " + joinAnd(dirs) + ", so they have no gates; gauntlet's defaults " +
		"there would be " + defaultCommands(*first) + " (add them as gates with dir: FOLDER to check one)."
	target := first
	if root := slices.IndexFunc(projects, func(p Project) bool { return p.Dir == "" && p.Kind == first.Kind }); root >= 0 {
		target = &projects[root]
	}
	target.Notes = append(target.Notes, note)
	for _, i := range folders {
		projects[i].Offers = nil
	}
}

// splitInferred moves the inferred gates to the offers.
func splitInferred(gates, offers []Gate) (kept, offered []Gate) {
	offered = offers
	for _, g := range gates {
		if g.Inferred {
			offered = append(offered, g)
		} else {
			kept = append(kept, g)
		}
	}
	return kept, offered
}

// declaresCheck reports whether the project runs a check of its own.
func declaresCheck(p Project) bool {
	return slices.ContainsFunc(p.Gates, func(g Gate) bool { return !g.Inferred })
}

// defaultsNote names gauntlet's defaults for a folder that runs no check init knows.
func defaultsNote(p Project) string {
	return "no check that init knows runs in this folder, so it has no gates; gauntlet's defaults " +
		"here would be " + defaultCommands(p) + " (add them as gates with dir: " + p.Dir + " to check it)."
}

// defaultCommands are a project's offered gates' commands, as a note shows them.
func defaultCommands(p Project) string {
	var cmds []string
	for _, g := range p.Offers {
		if g.Run == gofmtCheck || g.Run == gofmtSimplifyCheck {
			cmds = append(cmds, "`gofmt -l`")
			continue
		}
		cmds = append(cmds, "`"+g.Run+"`")
	}
	return joinAnd(cmds)
}

func detectDir(c *dirContext) []Project {
	var found []Project
	for _, detect := range languages {
		if p := detect(c); p != nil {
			p.Dir = c.rel
			found = append(found, *p)
		}
	}
	mk := detectMake(c.abs)
	switch {
	case mk == nil:
	case countGates(found) == 0:
		mk.Dir = c.rel
		found = append(found, *mk)
	default:
		// The checks the targets run became gates above; a target none of whose commands was
		// recognised may check something more, so it is named rather than dropped or doubled.
		if targets := c.unusedTargets(mk.Gates); len(targets) > 0 {
			found[len(found)-1].Notes = append(found[len(found)-1].Notes,
				"The Makefile here also has "+strings.Join(targets, ", ")+
					": if that checks more than the gates below, add it as a gate.")
		}
	}
	return found
}

// unusedTargets are the Makefile's check targets (as gates) none of whose commands became a
// gate, quoted.
func (c *dirContext) unusedTargets(targets []Gate) []string {
	var deps map[string][]string
	if _, data := firstFile(c.abs, "GNUmakefile", "makefile", "Makefile"); data != nil {
		deps = parseMakefile(data).deps
	}
	var out []string
	for _, g := range targets {
		target := strings.TrimPrefix(g.Run, "make ")
		if !slices.ContainsFunc(append([]string{target}, deps[target]...), c.readTarget) {
			out = append(out, "`"+g.Run+"`")
		}
	}
	return out
}

// readTarget reports whether a Makefile target's commands were read as the project's checks:
// each of them is then a gate or named in a comment (a target that only lists others, lint:
// lint-go lint-yaml, is read through them).
func (c *dirContext) readTarget(target string) bool {
	for _, d := range c.decls {
		if strings.HasSuffix(d.source, "file, target "+target) {
			return true
		}
	}
	return c.usedTarget(target)
}

// usedTarget reports whether a check declared in a Makefile target became one of the gates.
func (c *dirContext) usedTarget(target string) bool {
	for _, f := range c.found {
		if strings.HasSuffix(f.source, "file, target "+target) {
			return true
		}
	}
	return false
}

func countGates(projects []Project) int {
	n := 0
	for _, p := range projects {
		n += len(p.Gates)
	}
	return n
}

// skipDir leaves out what holds dependencies or tool state rather than projects, and names that
// a config could not spell.
func skipDir(name string) bool {
	if strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" {
		return true
	}
	if !utf8.ValidString(name) {
		return true
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// exists reports whether name in dir is a regular file.
func exists(dir, name string) bool {
	info, err := os.Stat(filepath.Join(dir, name))
	return err == nil && info.Mode().IsRegular()
}
