// Package preflight tells which tools a config's gates need that are not installed here, or are
// older than the project requires, with the command that gets each, so that a gate is not first
// seen failing with "command not found" or erroring on a version.
package preflight

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Problem is one thing a gate needs that is missing here.
type Problem struct {
	Gate    string // the gate's name
	Tool    string // "golangci-lint", "node_modules", "Playwright browsers"
	Message string // what is wrong: "golangci-lint is not on PATH"
	Fix     string // the command (or step) that puts it right
	// Sure says the gate cannot start here: nothing it needs first (a setup step), no PATH of its
	// own and no when: of another place could bring the program. doctor counts it as a problem.
	Sure bool
	// Doubt is why a program missing here may be found when the gate runs ("setup step deps may
	// install it"), when that is all that keeps the problem from being sure.
	Doubt string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s; get it with: %s", p.Gate, p.Message, p.Fix)
}

// Env is what Check looks at; System() is the real machine, tests stand in for it.
type Env struct {
	LookPath func(file string) (string, error)
	Exists   func(path string) bool // a file or directory is there
	Getenv   func(key string) string
	Home     string
	// Version runs a tool's version command in dir and returns what it printed; nil checks no
	// version.
	Version func(dir string, argv ...string) (string, error)
	// ReadFile reads a project's lock file, to see which tools its environment holds; nil does
	// not look.
	ReadFile func(path string) ([]byte, error)
}

// System looks at the real PATH and file system.
func System() Env {
	home, _ := os.UserHomeDir()
	return Env{
		LookPath: exec.LookPath,
		Exists:   func(p string) bool { _, err := os.Stat(p); return err == nil },
		Getenv:   os.Getenv,
		Home:     home,
		Version:  SystemVersion,
		ReadFile: readLockFile,
	}
}

// Bounds of reading a project's lock file: the largest lock files of real projects are a few MiB.
const (
	maxLockFile     = 16 << 20
	lockFileTimeout = 2 * time.Second
)

// readLockFile reads a lock file boundedly: a FIFO, a device or an endless file planted there is
// an error (the lock file is then not judged), never a wait.
func readLockFile(path string) ([]byte, error) {
	return safefile.ReadFile(path, maxLockFile, time.Now().Add(lockFileTimeout))
}

// Check looks at every enabled check gate's command on this machine.
func Check(root string, gs []gates.Gate) []Problem {
	return CheckEnv(root, gs, System())
}

// tool is what gauntlet knows about one program a gate may run.
type tool struct {
	fix  string
	kind string // "python": also look in the project's .venv
}

// tools are the programs gates commonly run, each with the command that gets it: the one table
// of how to install a tool, which the causes catalogue also reads when a gate's shell did not find
// one. Others (a project's own scripts, sh built-ins) are not judged: a false alarm would teach
// people to ignore the warnings.
var tools = sync.OnceValue(func() map[string]tool {
	return map[string]tool{
		"go":            {fix: "install Go from https://go.dev/dl/"},
		"gofmt":         {fix: "install Go from https://go.dev/dl/ (gofmt comes with it)"},
		"golangci-lint": {fix: "go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"},
		"staticcheck":   {fix: "go install honnef.co/go/tools/cmd/staticcheck@latest"},
		"cargo":         {fix: "install Rust with rustup: https://rustup.rs"},
		"rustc":         {fix: "install Rust with rustup: https://rustup.rs"},
		"rustup":        {fix: "install rustup: https://rustup.rs"},
		"uv":            {fix: "pipx install uv"},
		"poetry":        {fix: "pipx install poetry"},
		"pdm":           {fix: "pipx install pdm"},
		"hatch":         {fix: "pipx install hatch"},
		"tox":           {fix: "pipx install tox"},
		"nox":           {fix: "pipx install nox"},
		"pre-commit":    {fix: "pipx install pre-commit"},
		"pip":           {fix: "python3 -m ensurepip (or: apt-get install python3-pip)"},
		"pip3":          {fix: "python3 -m ensurepip (or: apt-get install python3-pip)"},
		"bandit":        {fix: "pipx install bandit", kind: "python"},
		"ruff":          {fix: "uv tool install ruff (or: pipx install ruff)", kind: "python"},
		"black":         {fix: "pipx install black", kind: "python"},
		"isort":         {fix: "pipx install isort", kind: "python"},
		"flake8":        {fix: "pipx install flake8", kind: "python"},
		"pylint":        {fix: "pip install pylint", kind: "python"},
		"mypy":          {fix: "pip install mypy (in the project's environment)", kind: "python"},
		"pyright":       {fix: "npm install -g pyright (or: pip install pyright)", kind: "python"},
		"basedpyright":  {fix: "pip install basedpyright", kind: "python"},
		"codespell":     {fix: "pipx install codespell", kind: "python"},
		"pytest":        {fix: "pip install pytest (in the project's environment)", kind: "python"},
		"python3":       {fix: "install Python 3"},
		"python":        {fix: "install Python 3"},
		"node":          {fix: "install Node.js from https://nodejs.org"},
		"npm":           {fix: "install Node.js from https://nodejs.org (npm comes with it)"},
		"npx":           {fix: "install Node.js from https://nodejs.org (npx comes with it)"},
		"pnpm":          {fix: "corepack enable pnpm (or: npm install -g pnpm)"},
		"yarn":          {fix: "corepack enable yarn (or: npm install -g yarn)"},
		"bun":           {fix: "npm install -g bun"},
		"bunx":          {fix: "npm install -g bun"},
		"deno":          {fix: "install Deno: https://docs.deno.com/runtime/getting_started/installation/"},
		"java":          {fix: "install a JDK (apt-get install default-jdk, or https://adoptium.net)"},
		"javac":         {fix: "install a JDK (apt-get install default-jdk, or https://adoptium.net)"},
		"mvn":           {fix: "install Maven (apt-get install maven, or https://maven.apache.org/download.cgi)"},
		"gradle":        {fix: "install Gradle (https://gradle.org/install/), or run the project's ./gradlew"},
		"dotnet":        {fix: "install the .NET SDK: https://dot.net"},
		"ruby":          {fix: "install Ruby (apt-get install ruby, or rbenv)"},
		"bundle":        {fix: "gem install bundler"},
		"php":           {fix: "install PHP (apt-get install php-cli)"},
		"composer":      {fix: "install Composer: https://getcomposer.org/download/"},
		"swift":         {fix: "install Swift: https://www.swift.org/install/"},
		"zig":           {fix: "install Zig: https://ziglang.org/download/"},
		"make":          {fix: "install make (apt-get install make)"},
		"shellcheck":    {fix: "apt-get install shellcheck (or: brew install shellcheck)"},
		// markdownlint-cli2 and markdownlint-cli are two programs with their own configs' names.
		"markdownlint-cli2": {fix: "npm install -g markdownlint-cli2"},
		"markdownlint":      {fix: "npm install -g markdownlint-cli"},
		// The reviewers of review gates, named when one is missing.
		"claude":              {fix: "npm install -g @anthropic-ai/claude-code"},
		"codex":               {fix: "npm install -g @openai/codex"},
		"gemini":              {fix: "npm install -g @google/gemini-cli"},
		"typos":               {fix: "cargo install typos-cli (or: brew install typos-cli)"},
		"yamllint":            {fix: "pipx install yamllint"},
		"detect-secrets-hook": {fix: "pipx install detect-secrets"},
		"ansible-lint":        {fix: "pipx install ansible-lint"},
		"mdl":                 {fix: "gem install mdl"},
		"misspell":            {fix: "go install github.com/golangci/misspell/cmd/misspell@latest"},
		"actionlint":          {fix: "go install github.com/rhysd/actionlint/cmd/actionlint@latest"},
		"govulncheck":         {fix: "go install golang.org/x/vuln/cmd/govulncheck@latest"},
	}
})

// ToolNames lists the programs preflight knows how to get, sorted.
func ToolNames() []string { return slices.Sorted(maps.Keys(tools())) }

// InstallHint is the command (or step) that gets prog, as preflight names it: the one place that
// says how to install a tool, for preflight's warnings and for the causes catalogue's fixes.
// ok is false for a program gauntlet does not know.
func InstallHint(prog string) (hint string, ok bool) {
	t, ok := tools()[prog]
	return t.fix, ok
}

// Missing is the problem of prog not being on PATH for a gate in dir, with the command that gets
// it: preflight's words before any gate runs, and the causes catalogue's when a gate's shell did
// not find prog. A Python tool that is in the project's .venv needs the environment activated; in a
// project that keeps a virtualenv (a uv, poetry, pdm or pipenv lock file, a .venv), creating it is
// the fix, with the tool's own install beside it. Elsewhere the virtualenv is not mentioned: uv
// missing is uv to install. ok is false for a program gauntlet does not know.
func Missing(prog, root, dir string, env Env) (p Problem, ok bool) {
	t, ok := tools()[prog]
	if !ok {
		return Problem{}, false
	}
	// Sure: the gate cannot start here, unless the tool is in a virtualenv only not active.
	p = Problem{Tool: prog, Message: prog + " is not on PATH", Fix: t.fix, Sure: true}
	if t.kind != "python" || env.Exists == nil {
		return p, true
	}
	dirs := projectDirs(root, dir)
	for _, d := range dirs {
		venv := filepath.Join(d, ".venv")
		if env.Exists(filepath.Join(venv, "bin", prog)) {
			p.Message = prog + " is in " + venv + " but not on PATH"
			p.Fix = "activate the environment (. .venv/bin/activate) before running gauntlet, or run the tool through uv run"
			p.Sure = false
			return p, true
		}
	}
	v, ok := ProjectVirtualenv(root, dir, env)
	switch {
	case !ok:
	case v.Sync != "" && lockLacks(filepath.Join(root, filepath.FromSlash(v.Evidence)), prog, env):
		// Syncing the environment would not bring it: the tool's own install is the fix.
		p.Message = prog + " is not on PATH, and the project's " + path.Base(v.Evidence) +
			" does not hold it (a pre-commit hook's tool, say)"
	case v.Sync != "":
		p.Message = prog + " is not on PATH, and the project's virtualenv (" + v.Evidence + ") is not created or lacks it"
		p.Fix = v.Sync + ", then activate the virtualenv before running gauntlet (or run the tool through " + v.Run + "); or install " + prog + " alone: " + t.fix
	default:
		p.Message = prog + " is not on PATH nor in the project's virtualenv (" + v.Evidence + ")"
		p.Fix = "install it there (" + filepath.ToSlash(filepath.Join(v.Evidence, "bin", "pip")) + " install " + prog + ") and activate it before running gauntlet; or install " + prog + " alone: " + t.fix
	}
	return p, true
}

// lockedName is a package's name in a uv, poetry or pdm lock file: each [[package]] table's.
var lockedName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^name = "([^"]+)"`) })

// lockLacks reports whether a lock file that lists its packages by name lists none named prog:
// the project's environment, once synced, will not have it either. A file that cannot be read,
// or lists no names (Pipfile.lock is JSON), is not judged.
func lockLacks(lock, prog string, env Env) bool {
	if env.ReadFile == nil {
		return false
	}
	data, err := env.ReadFile(lock)
	if err != nil {
		return false
	}
	names := lockedName().FindAllSubmatch(data, -1)
	if len(names) == 0 {
		return false
	}
	for _, m := range names {
		if strings.EqualFold(strings.ReplaceAll(string(m[1]), "_", "-"), prog) {
			return false
		}
	}
	return true
}

// Virtualenv is how a project keeps its Python virtualenv.
type Virtualenv struct {
	Evidence string // what says so, relative to the root: "uv.lock", "api/poetry.lock", ".venv"
	Sync     string // the command that creates it with the project's dependencies; "" for a bare .venv
	Run      string // the command that runs a tool inside it: "uv run"
}

// lockFiles are the files of the Python project managers that keep a virtualenv, in the order
// they are looked for in each directory.
var lockFiles = []struct{ file, sync, run string }{
	{"uv.lock", "uv sync", "uv run"},
	{"poetry.lock", "poetry install", "poetry run"},
	{"pdm.lock", "pdm install", "pdm run"},
	{"Pipfile.lock", "pipenv install --dev", "pipenv run"},
}

// ProjectVirtualenv says whether the project keeps a virtualenv for the gate in dir: a lock file
// of a manager that creates one, or a .venv, in dir or a directory above it up to root. ok is
// false for a project that has none.
func ProjectVirtualenv(root, dir string, env Env) (v Virtualenv, ok bool) {
	if env.Exists == nil {
		return Virtualenv{}, false
	}
	for _, d := range projectDirs(root, dir) {
		for _, l := range lockFiles {
			if env.Exists(filepath.Join(d, l.file)) {
				return Virtualenv{Evidence: inRoot(root, filepath.Join(d, l.file)), Sync: l.sync, Run: l.run}, true
			}
		}
		if env.Exists(filepath.Join(d, ".venv")) {
			return Virtualenv{Evidence: inRoot(root, filepath.Join(d, ".venv"))}, true
		}
	}
	return Virtualenv{}, false
}

// projectDirs are dir and the directories above it up to root; none when both are unknown.
func projectDirs(root, dir string) []string {
	if dir == "" {
		dir = root
	}
	if dir == "" {
		return nil
	}
	out := []string{dir}
	for d := dir; root != "" && filepath.Clean(d) != filepath.Clean(root); {
		parent := filepath.Dir(d)
		if parent == d || !isInsideRoot(root, parent) {
			break
		}
		out = append(out, parent)
		d = parent
	}
	return out
}

// isInsideRoot reports whether dir is root or below it.
func isInsideRoot(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && (filepath.IsLocal(rel) || rel == ".")
}

// inRoot is path relative to root, with slashes, when it is inside it.
func inRoot(root, path string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

// cargoSubcommands are cargo's tools that are installed apart from it.
var cargoSubcommands = sync.OnceValue(func() map[string]tool {
	return map[string]tool{
		"clippy":  {fix: "rustup component add clippy"},
		"fmt":     {fix: "rustup component add rustfmt"},
		"nextest": {fix: "cargo install cargo-nextest --locked"},
	}
})

// nodeRunners run a package.json script or a dependency's binary: both need node_modules.
var nodeRunners = sync.OnceValue(func() map[string]string {
	return map[string]string{"npm": "npm install", "pnpm": "pnpm install", "yarn": "yarn install", "bun": "bun install",
		"npx": "npm install", "bunx": "bun install"}
})

// CheckEnv is Check on env.
func CheckEnv(root string, gs []gates.Gate, env Env) []Problem {
	var out []Problem
	for _, g := range gs {
		if !g.Enabled || g.Kind != gates.KindCheck {
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(g.Dir))
		seen := map[string]bool{}
		add := func(p Problem) {
			if !seen[p.Tool] {
				seen[p.Tool] = true
				p.Gate = g.Name
				out = append(out, hedged(p, doubt(g, gs, env)))
			}
		}
		for _, words := range commands(g) {
			checkCommand(words, root, dir, env, add)
		}
	}
	return out
}

func checkCommand(words []string, root, dir string, env Env, add func(Problem)) {
	if len(words) == 0 {
		return
	}
	prog := words[0]
	if jvmWrappers[path.Base(prog)] {
		checkJDK(root, dir, env, add)
		return
	}
	if _, known := tools()[prog]; !known {
		return
	}
	if _, err := env.LookPath(prog); err != nil {
		p, _ := Missing(prog, root, dir, env)
		add(p)
		return
	}
	checkVersions(prog, root, dir, env, add)
	checkArgs(prog, words[1:], root, dir, env, add)
}

// jvmWrappers are the build wrappers a project keeps (./mvnw, ./gradlew): they download their
// build tool, but run it on a JDK they do not bring.
var jvmWrappers = map[string]bool{"mvnw": true, "gradlew": true}

// checkJDK: a JVM build wrapper runs on $JAVA_HOME/bin/java (java.exe on Windows), else java on
// PATH.
func checkJDK(root, dir string, env Env, add func(Problem)) {
	if home := getenv(env, "JAVA_HOME"); home != "" && env.Exists != nil &&
		(env.Exists(filepath.Join(home, "bin", "java")) || env.Exists(filepath.Join(home, "bin", "java.exe"))) {
		return
	}
	if _, err := env.LookPath("java"); err != nil {
		p, _ := Missing("java", root, dir, env)
		p.Message = "java is not on PATH (nor in $JAVA_HOME): the build wrapper needs a JDK"
		add(p)
	}
}

// checkArgs checks what a program's arguments need besides the program: cargo's subcommands
// their own binaries, a script or a package's binary node_modules.
func checkArgs(prog string, args []string, root, dir string, env Env, add func(Problem)) {
	switch {
	case prog == "cargo" && len(args) > 0:
		checkCargoSubcommand(args[0], env, add)
	case runsInProjectEnv(prog, args):
		return // the tool comes from the project's environment, which the runner builds
	case nodeRunners()[prog] != "" && runsNodeCode(prog, args):
		checkNode(prog, root, dir, env, add)
	}
}

// checkCargoSubcommand: a cargo subcommand that is a binary of its own must be installed.
func checkCargoSubcommand(name string, env Env, add func(Problem)) {
	if sub, ok := cargoSubcommands()[name]; ok && !cargoHas(env, "cargo-"+name) {
		add(Problem{Tool: "cargo-" + name, Message: "cargo " + name + " is not installed", Fix: sub.fix})
	}
}

// runsInProjectEnv reports `uv run TOOL` or `poetry run TOOL`.
func runsInProjectEnv(prog string, args []string) bool {
	return (prog == "uv" || prog == "poetry") && len(args) > 1 && args[0] == "run"
}

// runsNodeCode tells a script or a dependency's binary (which need node_modules) from the
// package manager's own commands (install, --version).
func runsNodeCode(prog string, args []string) bool {
	if prog == "npx" || prog == "bunx" {
		return true
	}
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "install", "i", "ci", "add", "--version", "-v", "version", "init", "create", "dlx":
		return false
	}
	return true
}

func checkNode(prog, root, dir string, env Env, add func(Problem)) {
	pkg := readPackageJSON(env, dir)
	if NoDependencies(pkg) {
		return // nothing to install: `npm install` would make no tool appear, node --test needs none
	}
	if !env.Exists(filepath.Join(dir, "node_modules")) && !env.Exists(filepath.Join(root, "node_modules")) {
		where := ""
		if dir != root {
			where = " in " + relTo(root, dir)
		}
		add(Problem{Tool: "node_modules", Message: "node_modules is missing" + where + ": the dependencies are not installed",
			Fix: inDir(root, dir, nodeRunners()[prog])})
		return
	}
	if usesPlaywright(pkg) && !playwrightBrowsers(env) {
		exec := map[string]string{"npm": "npx", "npx": "npx", "pnpm": "pnpm exec", "yarn": "yarn", "bun": "bunx", "bunx": "bunx"}[prog]
		add(Problem{Tool: "Playwright browsers", Message: "the project uses Playwright, but its browsers are not installed",
			Fix: inDir(root, dir, exec+" playwright install --with-deps")})
	}
}

// readPackageJSON is dir's package.json, read once for every question checkNode asks of it
// (whether it declares no dependency, so that node_modules is not missing but has nothing to
// hold; whether it uses Playwright); nil when env reads no file or it cannot be read, which
// answers no to both.
func readPackageJSON(env Env, dir string) []byte {
	if env.ReadFile == nil {
		return nil
	}
	data, err := env.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	return data
}

// NoDependencies says whether a package.json's content declares no dependency of any kind and
// no workspaces; false when it does not parse.
func NoDependencies(packageJSON []byte) bool {
	var pkg struct {
		Dependencies         map[string]any `json:"dependencies"`
		DevDependencies      map[string]any `json:"devDependencies"`
		OptionalDependencies map[string]any `json:"optionalDependencies"`
		PeerDependencies     map[string]any `json:"peerDependencies"`
		Workspaces           any            `json:"workspaces"`
	}
	if json.Unmarshal(packageJSON, &pkg) != nil {
		return false
	}
	return len(pkg.Dependencies)+len(pkg.DevDependencies)+len(pkg.OptionalDependencies)+len(pkg.PeerDependencies) == 0 &&
		pkg.Workspaces == nil
}

func inDir(root, dir, cmd string) string {
	if dir == root {
		return cmd
	}
	return "cd " + relTo(root, dir) + " && " + cmd
}

func relTo(root, dir string) string {
	if rel, err := filepath.Rel(root, dir); err == nil {
		return filepath.ToSlash(rel)
	}
	return dir
}

// usesPlaywright says whether a package.json's content depends on Playwright.
func usesPlaywright(packageJSON []byte) bool {
	var pkg struct {
		Dependencies    map[string]any `json:"dependencies"`
		DevDependencies map[string]any `json:"devDependencies"`
	}
	if json.Unmarshal(packageJSON, &pkg) != nil {
		return false
	}
	for _, name := range []string{"@playwright/test", "playwright"} {
		if pkg.Dependencies[name] != nil || pkg.DevDependencies[name] != nil {
			return true
		}
	}
	return false
}

// playwrightBrowsers looks where Playwright keeps its browsers by default.
func playwrightBrowsers(env Env) bool {
	if p := env.Getenv("PLAYWRIGHT_BROWSERS_PATH"); p != "" && p != "0" {
		return env.Exists(p)
	}
	cache := filepath.Join(env.Home, ".cache", "ms-playwright")
	if runtime.GOOS == "darwin" {
		cache = filepath.Join(env.Home, "Library", "Caches", "ms-playwright")
	}
	return env.Exists(cache)
}

// cargoHas finds a cargo subcommand on PATH or where rustup puts it.
func cargoHas(env Env, bin string) bool {
	if _, err := env.LookPath(bin); err == nil {
		return true
	}
	cargoHome := env.Getenv("CARGO_HOME")
	if cargoHome == "" {
		cargoHome = filepath.Join(env.Home, ".cargo")
	}
	return env.Exists(filepath.Join(cargoHome, "bin", bin))
}

// separators cut a shell line into simple commands; good enough to find the programs it runs.
var separators = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`&&|\|\||[;|\n]|\$\(|\(|\)|\{|\}|\bthen\b|\bdo\b`) })

var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// commands lists the simple commands of a gate, as words, without leading VAR=value.
func commands(g gates.Gate) [][]string {
	if len(g.Argv) > 0 {
		return [][]string{g.Argv}
	}
	var out [][]string
	for _, part := range separators().Split(g.Run, -1) {
		if words := simpleCommand(part); len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// simpleCommand is the words of one simple command, unquoted, from its program on: past
// leading assignments and an env prefix.
func simpleCommand(part string) []string {
	words := skipAssignments(strings.Fields(part))
	for i, w := range words {
		words[i] = strings.Trim(w, `'"`)
	}
	if len(words) > 0 && words[0] == "env" {
		words = skipAssignments(words[1:])
	}
	return words
}

// skipAssignments drops the leading NAME=value words.
func skipAssignments(words []string) []string {
	for len(words) > 0 && assignment().MatchString(words[0]) {
		words = words[1:]
	}
	return words
}

// Grouped merges the problems that are the same missing thing for several gates into one whose
// Gate lists them ("lint, test"), in the order they first appear.
func Grouped(ps []Problem) []Problem {
	var out []Problem
	index := map[string]int{}
	for _, p := range ps {
		key := p.Tool + "\x00" + p.Message + "\x00" + p.Fix
		if i, ok := index[key]; ok {
			out[i].Gate += ", " + p.Gate
			continue
		}
		index[key] = len(out)
		out = append(out, p)
	}
	return out
}

// getenv is env's variable, "" when env reads none.
func getenv(env Env, name string) string {
	if env.Getenv == nil {
		return ""
	}
	return env.Getenv(name)
}
