package scaffold

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// gofmtCheck lists the files of the change gofmt would change and fails when there are any
// (gofmt -l alone always exits 0). It is given the change's Go files ({files}, the gate's glob),
// not the whole tree: gofmt's verdict on a file depends on that file alone, so a stop after a
// one-file edit formats one file. testdata and vendor hold code that is not the project's to
// format, and hidden folders and node_modules no Go of the project: gofmtExclude leaves them out.
const gofmtCheck = `files=$(gofmt -l {files}) && [ -z "$files" ] || { echo "$files"; exit 1; }`

// gofmtGlob and gofmtExclude choose the files gofmtCheck is given.
var (
	gofmtGlob    = []string{"**/*.go"}
	gofmtExclude = []string{"**/testdata/**", "vendor/**", "**/node_modules/**", "**/.*/**"}
)

// gofmtSimplifyCheck is gofmtCheck with -s, for projects whose own lint simplifies code.
var gofmtSimplifyCheck = strings.Replace(gofmtCheck, "gofmt -l", "gofmt -s -l", 1)

// gofmtFix rewrites the files gofmtCheck lists, and only those: the same folders are left out.
const gofmtFix = `find . \( -name "testdata" -o -name "node_modules" -o -name ".?*" -o -path "./vendor" \) -prune -o -name "*.go" -type f -exec gofmt -w {} +`

// gofmtSimplifyFix is gofmtFix with -s.
var gofmtSimplifyFix = strings.Replace(gofmtFix, "gofmt -w", "gofmt -s -w", 1)

// goTidyCheck fails when go.mod or go.sum differ from what go mod tidy would write, and prints
// the difference, without changing them (Go 1.23 and later).
const goTidyCheck = "go mod tidy -diff"

// golangciConfigs are the names golangci-lint looks for its config under.
var golangciConfigs = []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}

// gauntletDefault is the source comment of a gate the project does not declare.
const gauntletDefault = "not declared by the project: gauntlet's default for %s"

func detectGo(c *dirContext) *Project {
	if !exists(c.abs, "go.mod") {
		return nil
	}
	p := &Project{Kind: "Go"}
	def := strings.Replace(gauntletDefault, "%s", "a Go module", 1)
	p.Gates = append(p.Gates, goFmtGate(c, def))
	config := firstExisting(c.abs, golangciConfigs)
	lint, hasLint := goLintGate(c, config)
	runsVet := hasLint && golangciRunsVet(c.abs, config)
	if vet, ok := goVetGate(c, def, runsVet); ok {
		p.Gates = append(p.Gates, vet)
	}
	if hasLint {
		if runsVet {
			lint.Comment += ", go vet's among them"
		}
		p.Gates = append(p.Gates, lint)
	}
	if g, ok := c.pick("staticcheck"); ok {
		p.Gates = append(p.Gates, g)
	}
	p.Gates = append(p.Gates, goTidyGate(c, def), goTestGate(c, def))
	modInputs := sync.OnceValues(func() ([]string, bool) { return goModuleInputs(c.root, c.rel) })
	for i := range p.Gates {
		p.Gates[i].Inputs = goInputs(c.rel, p.Gates[i], config, modInputs)
	}
	return p
}

// firstExisting is the first of names that is a file in dir, "" when none is.
func firstExisting(dir string, names []string) string {
	for _, name := range names {
		if exists(dir, name) {
			return name
		}
	}
	return ""
}

// goFmtGate is the gofmt gate, with -s when the project's own runs simplify, its source the
// place that runs gofmt (def when none does).
func goFmtGate(c *dirContext, def string) Gate {
	g := Gate{Name: "fmt", Comment: "files that gofmt would reformat", Run: gofmtCheck, Fix: gofmtFix,
		Glob: gofmtGlob, Exclude: gofmtExclude,
		Timeout: quick, Source: firstNonEmpty(c.checkSourceOf("gofmt"), c.gofmtSource, def)}
	if c.gofmtSimplify != "" {
		g.Comment = "files that gofmt -s would reformat or simplify"
		g.Run, g.Fix = gofmtSimplifyCheck, gofmtSimplifyFix
		g.Source = "from " + c.gofmtSimplify
	} else if g.Source == c.gofmtSource {
		g.Source = "from " + c.gofmtSource
	}
	g.Inferred = g.Source == def
	if g.Inferred && c.sourceOf("gofmt") != "" {
		// Only a formatting target runs gofmt: the project formats with it, nothing checks.
		g.Source = c.sourceOf("gofmt") + ", which only formats: nothing the project runs checks the formatting"
	}
	return g
}

// goLintGate is golangci-lint as the project runs it, else as its config asks (offered); false
// when neither.
func goLintGate(c *dirContext, config string) (Gate, bool) {
	if lint, ok := c.pick("golangci-lint"); ok {
		return lint, true
	}
	if config == "" {
		return Gate{}, false
	}
	return Gate{Name: "lint", Comment: "golangci-lint's linters", Run: "golangci-lint run", Fix: "golangci-lint run --fix",
		Timeout: 15 * time.Minute, Source: "from " + inDir(c.rel, config), Inferred: true}, true
}

// goVetGate is go vet as the project runs it, else gauntlet's default unless golangci-lint runs
// vet already.
func goVetGate(c *dirContext, def string, lintRunsVet bool) (Gate, bool) {
	if vet, ok := c.pick("go-vet"); ok {
		return vet, true
	}
	return Gate{Name: "vet", Comment: "suspicious constructs, as go vet reports them",
		Run: "go vet ./...", Timeout: lintTime, Source: def, Inferred: true}, !lintRunsVet
}

func goTidyGate(c *dirContext, def string) Gate {
	tidy := Gate{Name: "tidy", Comment: "go.mod and go.sum as go mod tidy would write them",
		Run: goTidyCheck, Fix: "go mod tidy", Timeout: 5 * time.Minute,
		Source: firstNonEmpty(c.sourceOf("go-mod-tidy"), def)}
	tidy.Inferred = tidy.Source == def
	return tidy
}

func goTestGate(c *dirContext, def string) Gate {
	if g, ok := c.pick("go-test"); ok {
		return g
	}
	return Gate{Name: "test", Comment: "the tests", Run: "go test ./...",
		Timeout: testTime, Hint: "Rerun one test with `go test -run NAME ./PKG`.", Source: def, Inferred: true}
}

// goInputs are the files a Go tool's verdict depends on, when the gate runs nothing but Go's own
// tools that read only what the Go tool lists (modInputs, asked once per module: the Go files,
// embedded files and the module files) and golangci-lint's config. go test is not cached here:
// Go's own test cache knows which files and variables the tests read, gauntlet cannot. A command
// that runs anything else (make, a script, go run) has inputs gauntlet cannot know, and is not
// cached.
func goInputs(dir string, g Gate, lintConfig string, modInputs func() ([]string, bool)) []string {
	switch {
	case g.Run == gofmtCheck || g.Run == gofmtSimplifyCheck:
		return []string{inDir(dir, "**/*.go")}
	case slices.ContainsFunc(goListedTools, func(prefix string) bool { return onlyGoTools(g.Run, prefix) }):
		if in, ok := modInputs(); ok {
			return in
		}
	case onlyGoTools(g.Run, "golangci-lint "):
		if in, ok := modInputs(); ok {
			if lintConfig != "" {
				in = append(slices.Clip(in), inDir(dir, lintConfig))
			}
			return in
		}
	}
	return nil
}

// goListedTools are the Go commands that read only the files the Go tool lists.
var goListedTools = []string{"go vet ", "go build ", "go mod tidy ", "go mod verify ", "go list "}

// onlyGoTools reports whether run is one command starting with prefix: no shell operators that
// would chain another program in.
func onlyGoTools(run, prefix string) bool {
	return strings.HasPrefix(run+" ", prefix) && !strings.ContainsAny(run, "|&;<>`$()")
}

// golangciRunsVet reports whether golangci-lint's config keeps govet, which it enables by
// default: then a separate go vet gate would do the same work again.
func golangciRunsVet(dir, config string) bool {
	if config == "" {
		return false
	}
	if !strings.HasSuffix(config, ".yml") && !strings.HasSuffix(config, ".yaml") {
		return true // TOML or JSON: assume the defaults
	}
	var cfg struct {
		Linters golangciLinters `yaml:"linters"`
	}
	if !decodeYAML(readCapped(dir+"/"+config), &cfg) {
		return false
	}
	return cfg.Linters.runsVet()
}

// golangciLinters is the linters: section of golangci-lint's config.
type golangciLinters struct {
	DisableAll bool     `yaml:"disable-all"`
	Default    string   `yaml:"default"`
	Enable     []string `yaml:"enable"`
	Disable    []string `yaml:"disable"`
}

// runsVet reports whether govet runs: it is on by default, unless disabled, or all defaults are
// and it is not enabled again.
func (l golangciLinters) runsVet() bool {
	if contains(l.Disable, "govet") {
		return false
	}
	if l.DisableAll || l.Default == "none" {
		return contains(l.Enable, "govet")
	}
	return true
}
