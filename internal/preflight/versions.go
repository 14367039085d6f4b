package preflight

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// A tool older than the project requires makes its gate error on every run (go.mod's go, the
// engines of package.json, pytest's minversion, pre-commit's minimum_pre_commit_version): the
// same requirement the causes catalogue recognises in a gate's output, named here before any
// gate runs.

// requirement is a version the project asks of a tool, and where it asks.
type requirement struct {
	tool  string // "Go", "Node.js", "pytest", "pre-commit"
	want  string // as written: "1.27.0", ">=22", "8.0"
	where string // "go.mod", "package.json engines.node"
	// argv prints the installed version; parse reads it from the output.
	argv  []string
	parse func() *regexp.Regexp
	// satisfied says whether the installed version meets want.
	satisfied func(have, want string) bool
	fix       string
}

// The version outputs' expressions, compiled at first use: every command starts this package,
// few look at a version.
var (
	goVersionOut     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`go(\d+(?:\.\d+){0,2})`) })
	plainVersionOut  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`v?(\d+(?:\.\d+){0,2})`) })
	pytestVersionOut = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`pytest (\d+(?:\.\d+){0,2})`) })
	precommitOut     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`pre-commit (\d+(?:\.\d+){0,2})`) })
)

// requirements lists what the gate's programs ask of their versions in dir (or the root).
func requirements(prog, root, dir string) []requirement {
	if of, ok := requirementsOf()[prog]; ok {
		return of(root, dir)
	}
	return nil
}

// requirementsOf reads, for each program whose version a project may require, where the project
// says which.
var requirementsOf = sync.OnceValue(func() map[string]func(root, dir string) []requirement {
	return map[string]func(root, dir string) []requirement{
		"go": goRequirement, "gofmt": goRequirement,
		"node": nodeRequirement, "npm": nodeRequirement, "npx": nodeRequirement, "pnpm": nodeRequirement, "yarn": nodeRequirement,
		"pytest":     pytestRequirement,
		"pre-commit": precommitRequirement,
	}
})

func goRequirement(root, dir string) []requirement {
	if v := goModVersion(root, dir); v != "" {
		return []requirement{{tool: "Go", want: v, where: "go.mod", argv: []string{"go", "env", "GOVERSION"}, parse: goVersionOut,
			satisfied: atLeast, fix: "install Go " + v + " or newer (or let GOTOOLCHAIN=auto download it)"}}
	}
	return nil
}

func nodeRequirement(root, dir string) []requirement {
	if r := enginesNode(root, dir); r != "" {
		return []requirement{{tool: "Node.js", want: r, where: "package.json engines.node", argv: []string{"node", "--version"},
			parse: plainVersionOut, satisfied: inRange, fix: "install a Node.js that engines.node accepts (" + r + ") with nvm, fnm or volta"}}
	}
	return nil
}

func pytestRequirement(root, dir string) []requirement {
	if v := pytestMinversion(root, dir); v != "" {
		return []requirement{{tool: "pytest", want: v, where: "pytest's minversion", argv: []string{"pytest", "--version"},
			parse: pytestVersionOut, satisfied: atLeast, fix: "install pytest " + v + " or newer in the project's environment"}}
	}
	return nil
}

func precommitRequirement(root, dir string) []requirement {
	if v := precommitMinimum(root, dir); v != "" {
		return []requirement{{tool: "pre-commit", want: v, where: ".pre-commit-config.yaml minimum_pre_commit_version",
			argv: []string{"pre-commit", "--version"}, parse: precommitOut, satisfied: atLeast, fix: "pipx upgrade pre-commit (or pip install -U pre-commit)"}}
	}
	return nil
}

// checkVersions adds a problem for each requirement the installed tool does not meet. A version
// that cannot be read is not judged: a false alarm would teach people to ignore the warnings.
func checkVersions(prog, root, dir string, env Env, add func(Problem)) {
	if env.Version == nil {
		return
	}
	checkPin(prog, root, dir, env, add)
	for _, r := range requirements(prog, root, dir) {
		out, err := env.Version(dir, r.argv...)
		if err != nil {
			continue
		}
		m := r.parse().FindStringSubmatch(out)
		if m == nil {
			continue
		}
		have := m[1]
		if r.satisfied(have, r.want) {
			continue
		}
		add(Problem{Tool: r.tool + " version", Message: r.tool + " " + have + " is older than the project requires (" + r.where + ": " + r.want + "): the gate will error",
			Fix: r.fix})
	}
}

// maxProjectFileBytes bounds the read of go.mod, package.json and their kin.
const maxProjectFileBytes = 1 << 20

func readProjectFile(path string) []byte {
	data, err := safefile.ReadFile(path, maxProjectFileBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return nil
	}
	return data
}

// nearest reads the first of name in dir, then in the root.
func nearest(root, dir, name string) []byte {
	for _, d := range []string{dir, root} {
		if data := readProjectFile(filepath.Join(d, name)); data != nil {
			return data
		}
	}
	return nil
}

var goDirective = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^go\s+(\d+(?:\.\d+){0,2})\s*$`) })

func goModVersion(root, dir string) string {
	if m := goDirective().FindSubmatch(nearest(root, dir, "go.mod")); m != nil {
		return string(m[1])
	}
	return ""
}

func enginesNode(root, dir string) string {
	var pkg struct {
		Engines map[string]string `json:"engines"`
	}
	if json.Unmarshal(nearest(root, dir, "package.json"), &pkg) != nil {
		return ""
	}
	return strings.TrimSpace(pkg.Engines["node"])
}

func pytestMinversion(root, dir string) string {
	var py struct {
		Tool struct {
			Pytest struct {
				IniOptions struct {
					Minversion any `toml:"minversion"`
				} `toml:"ini_options"`
			} `toml:"pytest"`
		} `toml:"tool"`
	}
	if data := nearest(root, dir, "pyproject.toml"); data != nil {
		if _, err := toml.Decode(string(data), &py); err == nil && py.Tool.Pytest.IniOptions.Minversion != nil {
			return strings.TrimSpace(toString(py.Tool.Pytest.IniOptions.Minversion))
		}
	}
	for _, ini := range []struct{ file, section string }{{"pytest.ini", "pytest"}, {"tox.ini", "pytest"}, {"setup.cfg", "tool:pytest"}} {
		if v := iniValue(nearest(root, dir, ini.file), ini.section, "minversion"); v != "" {
			return v
		}
	}
	return ""
}

func toString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// iniValue reads key in [section] of an ini file, as pytest does.
func iniValue(data []byte, section, key string) string {
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == "["+section+"]"
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func precommitMinimum(root, dir string) string {
	var cfg struct {
		Minimum string `yaml:"minimum_pre_commit_version"`
	}
	if yaml.Unmarshal(nearest(root, dir, ".pre-commit-config.yaml"), &cfg) != nil {
		return ""
	}
	return strings.TrimSpace(cfg.Minimum)
}

// numbers reads "1.27.0" (or "v22.1", "3.11") as numbers; nil when it starts with none.
func numbers(v string) []int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	var out []int
	for part := range strings.SplitSeq(v, ".") {
		digits := part
		if i := strings.IndexFunc(part, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
			digits = part[:i]
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			break
		}
		out = append(out, n)
		if len(digits) < len(part) {
			break
		}
	}
	return out
}

// compare compares dotted versions, missing parts counting as 0.
func compare(a, b string) int {
	x, y := numbers(a), numbers(b)
	for i := range max(len(x), len(y)) {
		var p, q int
		if i < len(x) {
			p = x[i]
		}
		if i < len(y) {
			q = y[i]
		}
		if p != q {
			if p < q {
				return -1
			}
			return 1
		}
	}
	return 0
}

func atLeast(have, want string) bool { return numbers(want) == nil || compare(have, want) >= 0 }

// inRange reads the common forms of an npm version range ("22", ">=20.11", "^18 || >=20",
// ">=18 <21", "20.x", "~20.1"); a form it does not know counts as satisfied.
func inRange(have, rng string) bool {
	for alt := range strings.SplitSeq(rng, "||") {
		if ok, known := inAlternative(have, alt); !known || ok {
			return true
		}
	}
	return false
}

// inAlternative reads one alternative of a range, comparators separated by blanks: ok is
// whether have satisfies every comparator read, known whether the last comparator with a
// version (or a wildcard) was read.
func inAlternative(have, alt string) (ok, known bool) {
	ok = true
	for _, c := range strings.Fields(alt) {
		op, v := splitComparator(c)
		if numbers(v) == nil {
			if isWildcard(op, v) {
				known = true
			}
			continue
		}
		holds, opKnown := comparatorHolds(have, op, v)
		ok, known = ok && holds, opKnown
	}
	return ok, known
}

// splitComparator splits ">=20.x" into its operator and its version, a trailing .x or .* left
// off.
func splitComparator(c string) (op, version string) {
	op = strings.TrimRightFunc(c, isVersionRune)
	version = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(c[len(op):], ".x"), ".X"), ".*")
	return op, version
}

func isVersionRune(r rune) bool {
	return r >= '0' && r <= '9' || r == '.' || r == 'x' || r == 'X' || r == '*' || r == 'v'
}

// isWildcard reports a comparator that any version satisfies: *, x, or nothing at all.
func isWildcard(op, v string) bool { return v == "*" || v == "x" || v == "" && op == "" }

// orderOps are the comparators that only order versions, by what they require of compare.
var orderOps = sync.OnceValue(func() map[string]func(cmp int) bool {
	return map[string]func(cmp int) bool{
		">=": func(cmp int) bool { return cmp >= 0 },
		">":  func(cmp int) bool { return cmp > 0 },
		"<":  func(cmp int) bool { return cmp < 0 },
		"<=": func(cmp int) bool { return cmp <= 0 },
	}
})

// comparatorHolds reports whether have satisfies op v; known is false for an operator it does
// not read, which then holds.
func comparatorHolds(have, op, v string) (holds, known bool) {
	cmp := compare(have, v)
	if order, ok := orderOps()[op]; ok {
		return order(cmp), true
	}
	switch op {
	case "^", "~", "", "=":
		return sameSeriesAtLeast(have, op, v, cmp), true
	}
	return true, false
}

// sameSeriesAtLeast: same major (and for ~ or a bare minor, same minor), at least the version.
func sameSeriesAtLeast(have, op, v string, cmp int) bool {
	n, h := numbers(v), numbers(have)
	holds := cmp >= 0 && len(h) > 0 && h[0] == n[0]
	if (op == "~" || op == "" || op == "=") && len(n) > 1 && len(h) > 1 {
		holds = holds && h[1] == n[1]
	}
	return holds
}

// versionTimeout bounds one `TOOL --version`.
const versionTimeout = 5 * time.Second

// SystemVersion runs argv in dir and returns its output, remembering each answer for the
// process: doctor and init ask once per tool.
func SystemVersion(dir string, argv ...string) (string, error) {
	key := dir + "\x00" + strings.Join(argv, "\x00")
	if v, ok := versionCache.Load(key); ok {
		r := v.(versionAnswer)
		return r.out, r.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	w := &limited{&out, 16 << 10}
	cmd.Stdout, cmd.Stderr = w, w // one writer: exec calls it from one goroutine at a time
	err := cmd.Run()
	versionCache.Store(key, versionAnswer{out.String(), err})
	return out.String(), err
}

type versionAnswer struct {
	out string
	err error
}

var versionCache sync.Map

// limited keeps at most n bytes and drops the rest, without failing the writer.
type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
