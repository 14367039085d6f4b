package scaffold

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// declared is a script the project itself runs somewhere: a CI step, a pre-commit hook, a task
// runner's recipe, a tox env. Gates prefer these over gauntlet's own guesses.
type declared struct {
	// env is the environment CI gives the step (workflow, job and step env:, matrix values
	// substituted), which the check may need to mean what it means in CI (DRIVER=sqlite).
	env    []EnvVar
	script string // shell text as written
	dir    string // where it runs, slash-separated and relative to the root ("" the root)
	source string // for the gate's comment: ".github/workflows/ci.yml, job test"
	rank   int    // lower is preferred, in the order the sources are read
	// inferred: a tox env or nox session that CI, the hooks and the task runners never run, in
	// a project that has CI: the project declares it but does not run it as a check.
	inferred bool
	// what says what kind of script this is, for naming what of it becomes no gate: a CI step's
	// name, a task runner's target; fixer marks a formatting target (its commands write).
	what  string
	fixer bool
	// uses is a CI step's action (crate-ci/typos@v1), when the step runs one instead of a script.
	uses string
	// unit is the tox env or nox session ("" for tox's base env), which CI may or may not run.
	unit string
	// paths are the files it runs on, as globs: a pre-commit hook's files: pattern; nil for all.
	paths []string
	// exclude are files it leaves out, as globs: an action's ignored paths.
	exclude []string
	// root is the repository's root on disk, where a script the project runs is looked for.
	root string
	// unread says why a declared check could not be read into a command (a nox session whose
	// command is computed): it is named with that reason, never gated.
	unread string
	// viaMake is the Makefile target whose recipe takes arguments make computes ($(shell ...)):
	// its check runs as `make TARGET`, since the command read here lost those arguments.
	viaMake string
	// followed marks a script of the project's read because CI, a hook or another such script
	// runs it (followedScripts).
	followed bool
	// via is the command that runs a followed script (./shellcheck.sh): a check of the script
	// whose arguments the script computes runs as the script itself.
	via []string
}

const (
	rankCI = iota
	rankPreCommit
	rankLefthook
	rankCalledTarget // a task runner's target that CI or a hook runs (make richtest)
	rankTaskRunner
	rankTox
)

// maxDeclFile bounds every file init reads: a project's config files are small, and a huge one
// is not worth reading whole.
const maxDeclFile = 1 << 20

// readCapped reads at most maxDeclFile bytes of a regular file; anything else reads as nothing.
func readCapped(name string) []byte {
	f, _, err := safefile.Open(name, time.Now().Add(declReadDeadline))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxDeclFile))
	return data
}

// declReadDeadline bounds reading one file a project declares its checks in.
const declReadDeadline = 5 * time.Second

// readDeclared gathers what root declares for the whole repository (CI, pre-commit, lefthook)
// and, for root and each folder given, its task runners and tox/nox envs.
func readDeclared(root string, dirs []string) []declared {
	var out []declared
	out = append(out, githubWorkflows(root)...)
	out = append(out, gitlabCI(root)...)
	out = append(out, preCommit(root)...)
	out = append(out, lefthook(root)...)
	out = append(out, followedScripts(out, root)...)
	called := calledTargets(out)
	for _, dir := range dirs {
		abs := filepath.Join(root, filepath.FromSlash(dir))
		out = append(out, taskRunnerChecks(abs, dir, called[dir])...)
		for _, d := range slices.Concat(toxEnvs(abs), toxTOML(abs), noxSessions(abs)) {
			d.dir, d.source, d.rank = dir, inDir(dir, d.source), rankTox
			out = append(out, d)
		}
	}
	markUnrun(out)
	for i := range out {
		out[i].root = root
	}
	return out
}

// taskRunnerChecks are the check targets, recipes and tasks of a folder's task runners, with
// the targets CI or a hook calls there (called) first. A formatting target names the formatter
// the project uses: its check form is the gate, the target itself no check.
func taskRunnerChecks(abs, dir string, called map[string]bool) []declared {
	wanted := maps.Clone(checkTargets())
	maps.Copy(wanted, called)
	maps.Copy(wanted, formatTargets())
	var out []declared
	for _, d := range slices.Concat(makeRecipes(abs, wanted), justRecipes(abs), taskfile(abs)) {
		d.dir, d.source, d.rank = dir, inDir(dir, d.source), rankTaskRunner
		_, target, _ := strings.Cut(d.source, ", target ")
		d.fixer = formatTargets()[target] && !called[target] && rewrites(d.script)
		if called[target] {
			d.rank = rankCalledTarget
		}
		out = append(out, d)
	}
	return out
}

// rewrites reports whether a script runs a check's writing form (gofmt -w, go fmt, black .): a
// formatting target that checks instead (test -z "$(gofmt -l .)") is a check like any other.
func rewrites(script string) bool {
	for _, cmd := range splitCommands(script) {
		if c, ok := classify(cmd.words); ok && c.writes {
			return true
		}
	}
	return false
}

// markUnrun marks the tox envs and nox sessions that nothing else the project declares runs, when
// it has CI: a check run only by a tool CI does not use (a pylint env, 1,000 messages old) is
// offered, not gated. Without CI, tox and nox are how the project says what it checks.
func markUnrun(decls []declared) {
	runs, ci := unitsRun(decls)
	if !ci {
		return
	}
	sessions := map[string]bool{}
	for _, d := range decls {
		if d.rank == rankTox && strings.Contains(d.source, "noxfile.py") {
			sessions[d.unit] = true
		}
	}
	for i := range decls {
		d := &decls[i]
		if d.rank != rankTox {
			continue
		}
		runner := "tox"
		if strings.Contains(d.source, "noxfile.py") {
			runner = "nox"
		}
		r := runs[runner]
		// tox's base env holds the commands of every env without its own (py, py312, ...).
		d.inferred = !(r["*"] || r[d.unit] || d.unit == "" && len(r) > 0 || runner == "nox" && runsParametrized(r, d.unit, sessions))
	}
}

// runsParametrized reports whether a nox session is run by the id of one of its parametrizations:
// `nox -s tests-3.12` (over Pythons), `nox -s "tests(django='5.0')"` (@nox.parametrize).
// A session of that name (lint-docs beside lint) is its own.
func runsParametrized(runs map[string]bool, session string, sessions map[string]bool) bool {
	for id := range runs {
		if !sessions[id] && (strings.HasPrefix(id, session+"-") || strings.HasPrefix(id, session+"(")) {
			return true
		}
	}
	return false
}

// unitsRun are the tox envs and nox sessions the declared scripts other than tox's and nox's
// own run, by runner ("*": all of them), and whether the project has CI.
func unitsRun(decls []declared) (map[string]map[string]bool, bool) {
	ci := false
	runs := map[string]map[string]bool{"tox": {}, "nox": {}}
	for _, d := range decls {
		if d.rank == rankTox {
			continue
		}
		ci = ci || d.rank == rankCI
		for _, cmd := range splitCommands(d.script) {
			runner, units := runnerUnits(cmd)
			if runner == "" {
				continue
			}
			for _, u := range unitsOr(append(units, toxEnvVar(d.env)...), "*") {
				runs[runner][u] = true
			}
		}
	}
	return runs, ci
}

// toxEnvVar are the envs TOXENV (or TOX_ENV) names.
func toxEnvVar(env []EnvVar) []string {
	var units []string
	for _, e := range env {
		if e.Name == "TOXENV" || e.Name == "TOX_ENV" {
			units = append(units, strings.Split(e.Value, ",")...)
		}
	}
	return units
}

// unitsOr is units, or all when there are none.
func unitsOr(units []string, all string) []string {
	if len(units) == 0 {
		return []string{all}
	}
	return units
}

// runnerUnits reads a tox or nox command: which runner, and the envs or sessions it names
// (-e a,b; -s name); none named means its defaults, taken here as all of them.
func runnerUnits(cmd simpleCommand) (string, []string) {
	w := withoutModule(withoutToolRunner(withoutEnvRunner(cmd.words)))
	if len(w) == 0 || w[0] != "tox" && w[0] != "nox" {
		return "", nil
	}
	return w[0], unitsNamed(w[1:])
}

// unitsNamed are the envs or sessions a tox or nox command's arguments name (-e a,b; -ea; -s x).
func unitsNamed(args []string) []string {
	var units []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case contains(unitFlags, a) && i+1 < len(args):
			i++
			units = append(units, strings.Split(args[i], ",")...)
		case strings.HasPrefix(a, "-e") && len(a) > 2:
			units = append(units, strings.Split(a[2:], ",")...)
		}
	}
	return units
}

// unitFlags name tox's envs and nox's sessions.
var unitFlags = []string{"-e", "--env", "-s", "--session", "--sessions"}

// runnerValueFlags are the flags of uv run and its like that take a value.
var runnerValueFlags = []string{"--group", "--with", "--extra", "--python", "-p"}

// withoutEnvRunner takes off the runner of a Python environment (uv run --with tox) and its flags.
func withoutEnvRunner(w []string) []string {
	for _, r := range pythonRunners {
		if hasPrefix(w, r...) {
			return skipFlags(w[len(r):], runnerValueFlags)
		}
	}
	return w
}

// isolatedRunners run a tool from the package index in an environment of its own (pipx run nox,
// uvx tox): the tool is still the project's runner of its sessions.
var isolatedRunners = [][]string{{"pipx", "run"}, {"uvx"}}

// isolatedRunnerValueFlags are the flags of pipx run and uvx that take a value.
var isolatedRunnerValueFlags = []string{"--spec", "--from", "--python", "--with", "-p"}

// withoutToolRunner takes off pipx run or uvx and their flags.
func withoutToolRunner(w []string) []string {
	for _, r := range isolatedRunners {
		if hasPrefix(w, r...) {
			return skipFlags(w[len(r):], isolatedRunnerValueFlags)
		}
	}
	return w
}

// skipFlags takes the flags off the front of w, with the values of those in valued.
func skipFlags(w []string, valued []string) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		if contains(valued, w[0]) && len(w) > 1 {
			w = w[1:]
		}
		w = w[1:]
	}
	return w
}

// withoutModule takes off `python -m` in front of a module run as a program.
func withoutModule(w []string) []string {
	if len(w) > 2 && (w[0] == "python" || w[0] == "python3") && w[1] == "-m" {
		return w[2:]
	}
	return w
}

// calledTargets are the Makefile targets that CI or a hook runs (`make lint-go`, `make -C api
// test`), by folder: whatever their names, the project uses them as checks.
func calledTargets(decls []declared) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, d := range decls {
		for _, cmd := range splitCommands(d.script) {
			if w := cmd.words; len(w) > 0 && (w[0] == "make" || w[0] == "gmake") {
				addMakeTargets(out, cleanDir(path.Join(d.dir, cmd.cd)), w[1:])
			}
		}
	}
	return out
}

// addMakeTargets adds the targets a make command's arguments name, in the folder it runs in
// (dir, or its -C folder), to out.
func addMakeTargets(out map[string]map[string]bool, dir string, args []string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" && i+1 < len(args):
			i++
			dir = cleanDir(path.Join(dir, args[i]))
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			if out[dir] == nil {
				out[dir] = map[string]bool{}
			}
			out[dir][a] = true
		}
	}
}

func inDir(dir, source string) string {
	if dir == "" {
		return source
	}
	return dir + "/" + source
}

// checkTargets are the task names that conventionally check a project.
var checkTargets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"lint": true, "check": true, "test": true, "tests": true, "vet": true, "fmt-check": true, "fmtcheck": true,
		"check-fmt": true, "format-check": true, "check-format": true, "typecheck": true, "type-check": true,
		"mypy": true, "tidy-check": true, "ci": true, "verify": true, "style": true, "static": true,
	}
})

// formatTargets are the Makefile targets that conventionally format the code.
var formatTargets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"fmt": true, "format": true}
})

// --- CI ---------------------------------------------------------------------------------------

type ghWorkflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]ghJob  `yaml:"jobs"`
}

type ghJob struct {
	Env      map[string]string `yaml:"env"`
	Strategy struct {
		Matrix map[string]yaml.Node `yaml:"matrix"`
	} `yaml:"strategy"`
	Defaults struct {
		Run struct {
			WorkingDirectory string `yaml:"working-directory"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Steps []ghStep `yaml:"steps"`
}

type ghStep struct {
	Name             string            `yaml:"name"`
	Env              map[string]string `yaml:"env"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	WorkingDirectory string            `yaml:"working-directory"`
}

func githubWorkflows(root string) []declared {
	var files []string
	for _, pat := range []string{"*.yml", "*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	var out []declared
	for _, f := range files {
		var wf ghWorkflow
		if decodeYAML(readCapped(f), &wf) {
			out = append(out, workflowChecks(".github/workflows/"+filepath.Base(f), wf)...)
		}
	}
	return out
}

// workflowChecks are what the steps of a workflow's jobs run, job by job.
func workflowChecks(rel string, wf ghWorkflow) []declared {
	var out []declared
	for _, name := range sortedKeys(wf.Jobs) {
		job := wf.Jobs[name]
		plumbing := workflowPlumbing(wf, name)
		src := fmt.Sprintf("%s, job %s", rel, name)
		for i := range job.Steps {
			if d, ok := workflowStep(wf, job, i, plumbing); ok {
				d.source = src
				out = append(out, d)
			}
		}
	}
	return out
}

// workflowStep is what one step of a job runs: its script with the matrix's first values and the
// workflow's env filled in, and the environment the check needs; golangci-lint's action as the
// command it runs; another action by its name.
func workflowStep(wf ghWorkflow, job ghJob, i int, plumbing map[string]bool) (declared, bool) {
	s := job.Steps[i]
	dir := cleanDir(firstNonEmpty(s.WorkingDirectory, job.Defaults.Run.WorkingDirectory))
	switch {
	case s.Run != "":
		return runStep(wf, job, s, dir, plumbing), true
	case strings.HasPrefix(s.Uses, "golangci/golangci-lint-action@"):
		return declared{script: "golangci-lint run " + s.With["args"],
			dir: cleanDir(firstNonEmpty(s.With["working-directory"], dir)), rank: rankCI}, true
	case s.Uses != "":
		return actionStep(s, dir), true
	}
	return declared{}, false
}

// runStep is a run: step's script, with the workflow's and the job's env and the matrix's first
// values filled in, and the environment its check needs.
func runStep(wf ghWorkflow, job ghJob, s ghStep, dir string, plumbing map[string]bool) declared {
	matrix := firstMatrixValues(job.Strategy.Matrix)
	filled := envExpression().ReplaceAllStringFunc(s.Run, func(e string) string { return workflowEnvValue(wf, job, e) })
	run := substituteMatrix(filled, matrix)
	// What is left that the matrix decides (`matrix.tox || 'py'`) is filled in too.
	run = ciExpression().ReplaceAllStringFunc(run, func(e string) string { return matrixExpressionValue(e, matrix) })
	shared := map[string]string{}
	for _, e := range []map[string]string{wf.Env, job.Env} {
		for k, v := range e {
			if !plumbing[k] || stepReads(s.Run, k) {
				shared[k] = v
			}
		}
	}
	return declared{script: run, dir: dir, rank: rankCI, what: s.Name, env: stepEnv(matrix, shared, s.Env)}
}

// workflowEnvValue is the value of ${{ env.X }} (the expression e) as the job or the workflow
// sets it, e itself when neither does or the value is an expression too.
func workflowEnvValue(wf ghWorkflow, job ghJob, e string) string {
	k := envExpression().FindStringSubmatch(e)[1]
	for _, env := range []map[string]string{job.Env, wf.Env} {
		if v, ok := env[k]; ok && !strings.Contains(v, "${{") {
			return v
		}
	}
	return e
}

// matrixExpressionValue is the value of the expression e worked out with the matrix's values,
// e itself when it depends on anything else.
func matrixExpressionValue(e string, matrix map[string]string) string {
	if v, ok := evalExpression(strings.TrimSuffix(strings.TrimPrefix(e, "${{"), "}}"), matrix, nil); ok {
		return v
	}
	return e
}

// actionStep is a uses: step: the check an action runs when init knows it (codespell, black),
// else the action, to be named if it checks.
func actionStep(s ghStep, dir string) declared {
	if d, ok := fileToolAction(s); ok {
		return d
	}
	if c := actionCommand(s.Uses); c != "" {
		if _, ok := classify(strings.Fields(c)); ok {
			return declared{script: c, dir: dir, rank: rankCI, what: s.Name}
		}
	}
	return declared{uses: s.Uses, dir: dir, rank: rankCI, what: s.Name}
}

// workflowPlumbing are the workflow's and the job's variables that serve CI itself: one a `${{
// env.X }}` fills into a command or an action's input (the cargo program, a Go version for
// setup-go), or one a step's script reads ($CROSS_VERSION in the step that downloads cross). A
// check step that reads it itself keeps it.
func workflowPlumbing(wf ghWorkflow, jobName string) map[string]bool {
	out := map[string]bool{}
	// The workflow's variables serve every job: setup-go's version in one job is plumbing in all.
	for name, j := range wf.Jobs {
		names := wf.Env
		if name == jobName {
			names = map[string]string{}
			maps.Copy(names, wf.Env)
			maps.Copy(names, wf.Jobs[jobName].Env)
		}
		for _, s := range j.Steps {
			markPlumbing(out, s.Run, names)
			for _, v := range s.With {
				markPlumbing(out, v, names)
			}
		}
	}
	return out
}

// markPlumbing marks in out the variables a text fills in (${{ env.X }}) and those of names it
// reads ($X).
func markPlumbing(out map[string]bool, text string, names map[string]string) {
	for _, m := range envExpression().FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	for k := range names {
		if stepReads(text, k) {
			out[k] = true
		}
	}
}

// stepReads reports whether a script reads $NAME or ${NAME}.
func stepReads(script, name string) bool {
	for _, ref := range []string{"$" + name, "${" + name + "}", "${" + name + ":"} {
		i := strings.Index(script, ref)
		if i < 0 {
			continue
		}
		end := i + len(ref)
		if strings.HasSuffix(ref, "}") || strings.HasSuffix(ref, ":") || end == len(script) || !isNameByte(script[end]) {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// envExpression is ${{ env.NAME }}: a workflow that runs `${{ env.CARGO }} test` with CARGO: cargo
// in its env runs cargo test.
var envExpression = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })

// gitlabReserved are the top-level keys of .gitlab-ci.yml that are not jobs.
var gitlabReserved = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"stages": true, "variables": true, "default": true, "include": true,
		"workflow": true, "image": true, "services": true, "before_script": true, "after_script": true, "cache": true}
})

func gitlabCI(root string) []declared {
	var doc map[string]yaml.Node
	if !decodeYAML(readCapped(filepath.Join(root, ".gitlab-ci.yml")), &doc) {
		return nil
	}
	var out []declared
	for _, name := range sortedKeys(doc) {
		if gitlabReserved()[name] || strings.HasPrefix(name, ".") {
			continue
		}
		var job struct {
			Script yaml.Node `yaml:"script"`
		}
		node := doc[name]
		if !decodeNode(&node, &job) {
			continue
		}
		for _, line := range stringOrList(&job.Script) {
			out = append(out, declared{script: line, source: ".gitlab-ci.yml, job " + name, rank: rankCI})
		}
	}
	return out
}

// --- hooks ------------------------------------------------------------------------------------

// preCommitHooks maps well-known hook ids to the command that checks what the hook checks, on the
// whole project (pre-commit passes only the staged files) and without fixing anything.
var preCommitHooks = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ruff": "ruff check", "ruff-check": "ruff check", "ruff-format": "ruff format --check",
		"black": "black --check .", "isort": "isort --check-only .", "flake8": "flake8", "pylint": "pylint",
		"mypy": "mypy", "pyright": "pyright", "basedpyright": "basedpyright", "codespell": "codespell",
		"golangci-lint": "golangci-lint run", "golangci-lint-full": "golangci-lint run",
		"go-fmt": "gofmt -l .", "go-vet": "go vet ./...", "go-vet-mod": "go vet ./...", "go-mod-tidy": "go mod tidy",
		"go-unit-tests": "go test ./...", "fmt": "cargo fmt --check", "cargo-check": "", "clippy": "cargo clippy -- -D warnings",
		"prettier": "prettier --check .", "eslint": "eslint .", "biome-check": "biome check .", "biome-ci": "biome ci .",
		// pre-commit passes these the files of their type: {files}, the change's, within their glob.
		// Checks of no language (anytools.go), over the whole project.
		"yamllint": "yamllint .", "ansible-lint": "ansible-lint", "typos": "typos", "actionlint": "actionlint",
		"misspell":   "misspell -error .",
		"shellcheck": "shellcheck {files}", "markdownlint": "markdownlint {files}", "markdownlint-cli2": "markdownlint-cli2 {files}",
		"detect-secrets": "detect-secrets-hook {files}",
	}
})

type preCommitConfig struct {
	Repos []struct {
		Repo  string          `yaml:"repo"`
		Hooks []preCommitHook `yaml:"hooks"`
	} `yaml:"repos"`
	// Files and Exclude narrow what pre-commit passes every hook.
	Files   string `yaml:"files"`
	Exclude string `yaml:"exclude"`
}

type preCommitHook struct {
	ID      string   `yaml:"id"`
	Entry   string   `yaml:"entry"`
	Args    []string `yaml:"args"`
	Files   string   `yaml:"files"`
	Exclude string   `yaml:"exclude"`
}

// command is the check a hook runs (hookCommand), "" for a hook given the change's files
// ({files}) whose files pre-commit narrows in a way init does not read: an exclude, or a files:
// pattern that is no globs. Its gate would check files the hook never sees.
func (cfg preCommitConfig) command(repo string, h preCommitHook) string {
	cmd := hookCommand(repo, h.ID, h.Entry, h.Args)
	// An exclude read as globs is the gate's exclude (hookExclude); anything else narrows the
	// files in a way the gate cannot follow.
	unread := cfg.Files != "" || !globsOrNone(cfg.Exclude) || !globsOrNone(h.Exclude) || !globsOrNone(h.Files)
	if unread && strings.Contains(cmd, filesarg.Placeholder) {
		return ""
	}
	return cmd
}

// globsOrNone reports whether a pre-commit pattern is empty or reads as globs.
func globsOrNone(pattern string) bool {
	globs, _ := hookFiles(pattern)
	return pattern == "" || globs != nil
}

// preCommitUnmapped sorts the hooks of .pre-commit-config.yaml that become no gate by why, so that
// init can name each with its reason.
func preCommitUnmapped(root string) unmappedHooks {
	var cfg preCommitConfig
	var out unmappedHooks
	if !decodeYAML(readCapped(filepath.Join(root, ".pre-commit-config.yaml")), &cfg) {
		return out
	}
	seen := map[string]bool{}
	for _, r := range cfg.Repos {
		for _, h := range r.Hooks {
			cmd := cfg.command(r.Repo, h)
			unknown := cmd != "" && unknownLocalHook(r.Repo, cmd)
			if cmd != "" && !unknown || seen[h.ID] {
				continue
			}
			seen[h.ID] = true
			out.add(r.Repo, h, !unknown && hookCommand(r.Repo, h.ID, h.Entry, h.Args) != "")
		}
	}
	return out
}

// unknownLocalHook reports a local hook whose entry runs no check init knows and that no other
// note names: it is named among the hooks init does not know.
func unknownLocalHook(repo, entry string) bool {
	if repo != "local" {
		return false
	}
	d := declared{script: entry, rank: rankPreCommit}
	for _, cmd := range splitCommands(entry) {
		if isCheck(d, cmd.words) {
			return false
		}
	}
	return len(leftOutOf(d)) == 0
}

// unmappedHooks are pre-commit hooks that are no gate, by why: pre-commit's own checks (only
// pre-commit runs them), fixers (they rewrite files), hooks init knows whose files pre-commit
// narrows in a way init cannot read, and hooks init does not know.
type unmappedHooks struct{ own, fixers, narrowed, unknown []string }

// preCommitOwnChecks are pre-commit-hooks' checks that are not named check-*.
var preCommitOwnChecks = []string{"debug-statements", "detect-private-key", "detect-aws-credentials", "no-commit-to-branch",
	"forbid-new-submodules", "destroyed-symlinks", "name-tests-test", "forbid-submodules"}

// preCommitFixers are hooks that rewrite files, besides those whose id says so (fix, format).
var preCommitFixers = []string{"trailing-whitespace", "end-of-file-fixer", "mixed-line-ending", "requirements-txt-fixer",
	"sort-simple-yaml", "file-contents-sorter", "double-quote-string-fixer", "pyupgrade", "autoflake", "add-trailing-comma",
	"nbstripout", "insert-license", "remove-tabs", "remove-crlf", "pretty-format-json", "autopep8", "docformatter"}

func (u *unmappedHooks) add(repo string, h preCommitHook, known bool) {
	id := h.ID
	switch {
	case repo == "local" && h.Entry != "":
		u.unknown = append(u.unknown, id+" (`"+clipCommand(h.Entry)+"`)")
	case known:
		u.narrowed = append(u.narrowed, id)
	case contains(preCommitFixers, id) || strings.Contains(id, "fix") || strings.Contains(id, "format"):
		u.fixers = append(u.fixers, id)
	case strings.HasPrefix(id, "check-") || contains(preCommitOwnChecks, id) || strings.Contains(repo, "pre-commit/pre-commit-hooks"):
		u.own = append(u.own, id)
	default:
		u.unknown = append(u.unknown, id)
	}
}

// note names the hooks with why each is no gate; "" when there are none.
func (u unmappedHooks) note() string {
	var parts []string
	for _, g := range []struct {
		ids  []string
		what string
	}{
		{u.own, "pre-commit's own checks, which only pre-commit runs (`pre-commit run HOOK --all-files`)"},
		{u.narrowed, "checks whose files pre-commit narrows in a way init cannot read as globs (its exclude or files pattern)"},
		{u.unknown, "hooks init does not know"},
		{u.fixers, "fixers, which rewrite files rather than check them"},
	} {
		if len(g.ids) > 0 {
			parts = append(parts, strings.Join(g.ids, ", ")+": "+g.what)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ".pre-commit-config.yaml also has hooks that are no gate here: " + strings.Join(parts, "; ") + "."
}

func preCommit(root string) []declared {
	var cfg preCommitConfig
	if !decodeYAML(readCapped(filepath.Join(root, ".pre-commit-config.yaml")), &cfg) {
		return nil
	}
	var out []declared
	for _, r := range cfg.Repos {
		for _, h := range r.Hooks {
			if cmd := cfg.command(r.Repo, h); cmd != "" {
				local := r.Repo == "local"
				cmd, paths := hookScope(cmd, h.ID, h.Files, local)
				cmd, exclude := hookExclude(cmd, h.ID, []string{cfg.Exclude, h.Exclude}, local)
				out = append(out, declared{script: cmd, source: ".pre-commit-config.yaml, hook " + h.ID, rank: rankPreCommit,
					paths: paths, exclude: exclude})
			}
		}
	}
	return out
}

// hookCommand is the check a pre-commit hook runs: a known hook's command with the hook's own
// args (they configure the check: --config, --ignore-words; classify drops those that would fix
// files), or a local hook's entry; "" when neither.
func hookCommand(repo, id, entry string, args []string) string {
	if repo == "local" && entry != "" {
		return entry
	}
	if entry != "" && preCommitHooks()[id] != "" && !strings.Contains(preCommitHooks()[id], filesarg.Placeholder) {
		// The config overrides the hook's entry (python3 -m ansiblelint site.yml -c ...): that is
		// what pre-commit runs, with the hook's args after it.
		for _, a := range args {
			entry += " " + quoteWord(a)
		}
		return entry
	}
	cmd := preCommitHooks()[id]
	if id == "markdownlint" && strings.Contains(repo, "markdownlint/markdownlint") {
		cmd = "mdl ." // the Ruby markdownlint's hook runs mdl, not the Node markdownlint
	}
	if cmd == "" || repo == "local" || strings.HasPrefix(cmd, "gofmt") {
		return cmd
	}
	for _, a := range args {
		cmd += " " + quoteWord(a)
	}
	return cmd
}

var lefthookTemplate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[a-z_]+\}`) })

func lefthook(root string) []declared {
	var doc map[string]yaml.Node
	name := ""
	for _, n := range []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"} {
		if data := readCapped(filepath.Join(root, n)); data != nil && decodeYAML(data, &doc) {
			name = n
			break
		}
	}
	if name == "" {
		return nil
	}
	var out []declared
	for _, hook := range sortedKeys(doc) {
		node := doc[hook]
		out = append(out, lefthookCommands(name, hook, &node)...)
	}
	return out
}

// lefthookCheckHooks are lefthook's hooks that check the code: commit-msg and the post-* hooks
// check a message or set up the work tree, never the project's files.
var lefthookCheckHooks = map[string]bool{"pre-commit": true, "pre-push": true, "pre-merge-commit": true}

// lefthookJob is one entry of a hook's jobs: (lefthook 1.10): a command (run), a script run by
// its runner, or a group of jobs, whose root, glob and exclude hold for every job nested in it.
type lefthookJob struct {
	Name    string    `yaml:"name"`
	Run     string    `yaml:"run"`
	Script  string    `yaml:"script"`
	Runner  string    `yaml:"runner"`
	Root    string    `yaml:"root"`
	Glob    yaml.Node `yaml:"glob"`
	Exclude yaml.Node `yaml:"exclude"`
	Group   *struct {
		Jobs []lefthookJob `yaml:"jobs"`
	} `yaml:"group"`
}

// lefthookCommands are the commands of one hook of lefthook's config (name): its commands: map
// and its jobs: list, groups flattened.
func lefthookCommands(name, hook string, node *yaml.Node) []declared {
	if !lefthookCheckHooks[hook] {
		return nil
	}
	var h struct {
		Commands map[string]lefthookJob `yaml:"commands"`
		Jobs     []lefthookJob          `yaml:"jobs"`
		Scripts  map[string]lefthookJob `yaml:"scripts"`
	}
	if !decodeNode(node, &h) {
		return nil
	}
	var out []declared
	for _, c := range sortedKeys(h.Commands) {
		out = append(out, lefthookJobs(name, hook, "command "+c, []lefthookJob{h.Commands[c]}, lefthookScope{})...)
	}
	for _, s := range sortedKeys(h.Scripts) {
		j := h.Scripts[s]
		j.Script = s
		out = append(out, lefthookJobs(name, hook, "script "+s, []lefthookJob{j}, lefthookScope{})...)
	}
	return append(out, lefthookJobs(name, hook, "job ", h.Jobs, lefthookScope{})...)
}

// lefthookScope is what a group passes its jobs: their folder and the files they run on.
type lefthookScope struct {
	root          string
	glob, exclude []string
}

// lefthookJobs flattens jobs (named by prefix and their name, or their place: 2.1 is the first
// job of the second's group) into declared commands, each with the scope of its groups.
func lefthookJobs(file, hook, prefix string, jobs []lefthookJob, scope lefthookScope) []declared {
	var out []declared
	for i, j := range jobs {
		id := prefix
		if strings.HasSuffix(prefix, " ") || strings.HasSuffix(prefix, ".") {
			id += firstNonEmpty(j.Name, fmt.Sprint(i+1))
		}
		s := scope.within(j)
		if j.Group != nil {
			out = append(out, lefthookJobs(file, hook, id+".", j.Group.Jobs, s)...)
			continue
		}
		if d, ok := lefthookJobCommand(j, hook); ok {
			d.dir, d.source, d.rank = cleanDir(s.root), fmt.Sprintf("%s, %s %s", file, hook, id), rankLefthook
			d.paths, d.exclude = s.underRoot(s.glob), s.underRoot(s.exclude)
			out = append(out, d)
		}
	}
	return out
}

// underRoot is globs as lefthook applies them to a job with a root: to the files under the
// root, a glob without a folder of its own at any depth there.
func (s lefthookScope) underRoot(globs []string) []string {
	root := cleanDir(s.root)
	if root == "" || globs == nil {
		return globs
	}
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		if strings.HasPrefix(g, "**/") {
			g = root + "/" + g
		}
		out = append(out, g)
	}
	return out
}

// within is the scope of job j inside s: its own root, glob and exclude win.
func (s lefthookScope) within(j lefthookJob) lefthookScope {
	if j.Root != "" {
		s.root = j.Root
	}
	if g := lefthookGlobs(&j.Glob); g != nil {
		s.glob = g
	}
	if e := lefthookGlobs(&j.Exclude); e != nil {
		s.exclude = e
	}
	return s
}

// lefthookJobCommand is the command a job runs: its run: with lefthook's file templates
// ({staged_files}, {push_files}, ...) taken out, so that the gate checks the whole project, or
// its script: as its runner runs it from the hook's source folder.
func lefthookJobCommand(j lefthookJob, hook string) (declared, bool) {
	switch {
	case j.Run != "":
		return declared{script: lefthookRun(j.Run)}, true
	case j.Script != "":
		return declared{script: strings.TrimSpace(j.Runner + " " + path.Join(".lefthook", hook, j.Script))}, true
	}
	return declared{}, false
}

// lefthookRun is a job's run: with lefthook's file templates ({staged_files}, {push_files},
// {all_files}, ...) as the whole project: the tool's own walk of "." where it is given paths, its
// default where that is the project (golangci-lint run, go vet), and the change's files for the
// tools that judge each file alone (shellcheck, markdownlint), as pre-commit's are.
func lefthookRun(run string) string {
	if !lefthookTemplate().MatchString(run) {
		return strings.TrimSpace(run)
	}
	words := strings.Fields(run)
	program := ""
	if w := withoutRunner(words); len(w) > 0 {
		program = path.Base(w[0])
	}
	whole := "."
	switch {
	case program == "golangci-lint" || program == "go":
		whole = ""
	case fileTools()[program].key != "":
		whole = filesarg.Placeholder
	}
	var out []string
	for _, w := range words {
		if lefthookTemplate().MatchString(w) {
			w = lefthookTemplate().ReplaceAllString(w, whole)
			if w == "" || contains(out, w) {
				continue
			}
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// lefthookGlobs reads a glob: or exclude: value (one glob or a list) as gauntlet's globs:
// lefthook matches a glob without a slash against the whole path, at any depth. An exclude
// written as a regular expression (lefthook before 1.10) is not read.
func lefthookGlobs(n *yaml.Node) []string {
	var out []string
	for _, g := range stringOrList(n) {
		if strings.ContainsAny(g, "^$\\|()") {
			return nil
		}
		if !strings.Contains(g, "/") {
			g = "**/" + g
		}
		out = append(out, g)
	}
	return out
}

// --- task runners -----------------------------------------------------------------------------

// makeVar is a simple Makefile variable definition: NAME = value, :=, ?=, ::=.
var makeVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::)?=\s*(.*)$`) })

// makeFunction is a call of one of make's functions: $(shell ...), $(realpath ...), ${wildcard ...}.
var makeFunction = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[({][a-z-]+[ \t]`) })

var makeRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`) })

// makeRecipes returns the recipe of each wanted target (and of the targets it depends on, one
// level deep), with the Makefile's simple variables expanded.
func makeRecipes(dir string, wanted map[string]bool) []declared {
	name, data := firstFile(dir, "GNUmakefile", "makefile", "Makefile")
	if name == "" {
		return nil
	}
	mf := parseMakefile(data)
	var out []declared
	// A target's recipe is read once, but a wanted target's prerequisites are read even when it
	// was met first as another's (check: test lint, then lint: lint-go lint-yaml).
	seen, expanded := map[string]bool{}, map[string]bool{}
	for _, t := range mf.order {
		if !wanted[t] || expanded[t] {
			continue
		}
		expanded[t] = true
		for _, target := range append([]string{t}, mf.deps[t]...) {
			if seen[target] {
				continue
			}
			seen[target] = true
			if lines := mf.recipe(target); len(lines) > 0 {
				d := declared{script: strings.Join(lines, "\n"), source: name + ", target " + target}
				if mf.computes(target) {
					d.viaMake = target
				}
				out = append(out, d)
			}
		}
	}
	return out
}

// firstFile is the first of names in dir that can be read, with its content; "" when none.
func firstFile(dir string, names ...string) (string, []byte) {
	for _, n := range names {
		if data := readCapped(filepath.Join(dir, n)); data != nil {
			return n, data
		}
	}
	return "", nil
}

// makefile is what makeRecipes reads of a Makefile: its simple variables, each target's
// recipe lines and prerequisites, and the targets in the order they are defined.
type makefile struct {
	vars map[string]string
	// computed are the variables whose value make works out ($(shell ...), a value continued
	// over lines): read here as empty.
	computed map[string]bool
	recipes  map[string][]string
	deps     map[string][]string
	order    []string
	current  []string // the targets whose recipe the lines being read are
}

func parseMakefile(data []byte) *makefile {
	mf := &makefile{vars: map[string]string{}, computed: map[string]bool{}, recipes: map[string][]string{}, deps: map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		mf.line(sc.Text())
	}
	return mf
}

// line reads one line: a recipe line of the current targets, a variable, a rule, or anything
// else that ends the current rule (a comment or an empty line does not).
func (mf *makefile) line(line string) {
	if strings.HasPrefix(line, "\t") {
		for _, t := range mf.current {
			mf.recipes[t] = append(mf.recipes[t], line[1:])
		}
		return
	}
	if m := makeVar().FindStringSubmatch(line); m != nil {
		mf.vars[m[1]] = knownMakeValue(m[2])
		mf.computed[m[1]] = mf.vars[m[1]] == "" && strings.TrimSpace(m[2]) != ""
		mf.current = nil
		return
	}
	if m := ruleLine().FindStringSubmatch(line); m != nil {
		mf.rule(line, m)
		return
	}
	if trimmed := strings.TrimSpace(line); trimmed != "" && !strings.HasPrefix(trimmed, "#") {
		mf.current = nil
	}
}

// knownMakeValue is a variable's value as far as it is known here: a value make computes
// ($(shell ...), $(wildcard ...)) or that goes on over several lines is empty, as an unset
// variable, rather than fragments of make's own syntax taken for commands.
func knownMakeValue(value string) string {
	v := strings.TrimSpace(value)
	if strings.HasSuffix(v, "\\") || makeFunction().MatchString(v) {
		return ""
	}
	return v
}

// rule starts the targets of a rule line (m is ruleLine's match) with their prerequisites.
func (mf *makefile) rule(line string, m []string) {
	mf.current = strings.Fields(m[1])
	rest := line[len(m[0])-1:]
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		rest = rest[i+1:]
	}
	for _, t := range mf.current {
		mf.order = append(mf.order, t)
		mf.deps[t] = append(mf.deps[t], strings.Fields(strings.SplitN(rest, "#", 2)[0])...)
	}
}

// recipe is a target's commands, without make's line prefixes (@, -, +) and messages, with the
// variables expanded.
func (mf *makefile) recipe(target string) []string {
	var lines []string
	for _, l := range mf.recipes[target] {
		l = strings.TrimLeft(strings.TrimSpace(l), "@-+")
		if makeMessage(l) {
			continue
		}
		// A variable may hold make's prefixes too (comp_dir=@mkdir -p autocomplete).
		lines = append(lines, strings.TrimLeft(mf.expand(l), "@-+"))
	}
	return lines
}

// makeMessage reports whether a recipe line only prints make's message.
func makeMessage(l string) bool {
	return strings.HasPrefix(l, "$(info") || strings.HasPrefix(l, "$(warning")
}

// computes reports whether a target's recipe takes a value init cannot read: a variable make
// computes (directly or through another variable), or a function call left after expanding.
func (mf *makefile) computes(target string) bool {
	for _, l := range mf.recipes[target] {
		l = strings.TrimLeft(strings.TrimSpace(l), "@-+")
		if makeMessage(l) {
			continue
		}
		// $$( is the shell's command substitution, not make's.
		l = strings.ReplaceAll(l, "$$", "")
		if mf.refersComputed(l, 3) || makeFunction().MatchString(mf.expand(l)) {
			return true
		}
	}
	return false
}

// refersComputed reports whether text refers to a computed variable, depth levels deep.
func (mf *makefile) refersComputed(text string, depth int) bool {
	for _, m := range makeRef().FindAllStringSubmatch(text, -1) {
		if mf.computed[m[1]] || depth > 0 && mf.refersComputed(mf.vars[m[1]], depth-1) {
			return true
		}
	}
	return false
}

// expand fills in the variables, three levels deep; an undefined variable is empty to make too
// (TAGS in `-tags "$(TAGS)"`).
func (mf *makefile) expand(s string) string {
	for range 3 {
		s = makeRef().ReplaceAllStringFunc(s, mf.value)
	}
	s = makeCall().ReplaceAllStringFunc(s, makeCallValue)
	return strings.ReplaceAll(s, "$$", "$")
}

// makeCall is a call of one of make's functions init can work out, without nested calls, once
// variables are filled in: $(if CONDITION,THEN[,ELSE]), $(filter-out PATTERNS,TEXT), $(strip
// TEXT). `golangci-lint run $(if ${CI},--out-format github-actions,)` outside CI is
// `golangci-lint run`.
var makeCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:\((if|filter-out|strip)[ \t]([^(){}]*)\)|\{(if|filter-out|strip)[ \t]([^(){}]*)\})`)
})

// makeCallValue is the value of one makeCall.
func makeCallValue(call string) string {
	m := makeCall().FindStringSubmatch(call)
	args := strings.Split(m[2]+m[4], ",")
	switch fn := m[1] + m[3]; {
	case fn == "strip" && len(args) == 1:
		return strings.Join(strings.Fields(args[0]), " ")
	case fn == "filter-out" && len(args) == 2:
		return strings.Join(slices.DeleteFunc(strings.Fields(args[1]), func(w string) bool {
			return slices.Contains(strings.Fields(args[0]), w)
		}), " ")
	case fn == "if" && (len(args) == 2 || len(args) == 3):
		return makeIfValue(args)
	}
	return call // not a form read here: left for the command reader to pass over
}

// makeIfValue is $(if CONDITION,THEN[,ELSE]): THEN when the condition is not blank, else ELSE.
func makeIfValue(args []string) string {
	if strings.TrimSpace(args[0]) != "" {
		return strings.TrimSpace(args[1])
	}
	if len(args) == 3 {
		return strings.TrimSpace(args[2])
	}
	return ""
}

// value is the value of one variable reference, $(NAME) or ${NAME}.
func (mf *makefile) value(ref string) string {
	return mf.vars[makeRef().FindStringSubmatch(ref)[1]]
}

// justRecipe is a justfile recipe line: name, optional parameters, a colon, dependencies.
var justRecipe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@?([A-Za-z_][A-Za-z0-9_-]*)[^:=]*:(?:[^=]|$)`) })

func justRecipes(dir string) []declared {
	name, data := firstFile(dir, "justfile", "Justfile", ".justfile")
	if name == "" {
		return nil
	}
	jr := &justReader{name: name}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		jr.line(sc.Text())
	}
	jr.flush()
	return jr.out
}

// justReader reads a justfile line by line: the recipe being read and its lines so far.
type justReader struct {
	name, current string
	lines         []string
	out           []declared
}

// line reads one line: an indented line of the current recipe, or the start of another.
func (jr *justReader) line(line string) {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		if jr.current != "" {
			jr.lines = append(jr.lines, strings.TrimLeft(strings.TrimSpace(line), "@-"))
		}
		return
	}
	jr.flush()
	if m := justRecipe().FindStringSubmatch(line); m != nil {
		jr.current = m[1]
	}
}

// flush keeps the recipe read, when it is a check's and runs anything.
func (jr *justReader) flush() {
	if jr.current != "" && checkTargets()[jr.current] && len(jr.lines) > 0 {
		jr.out = append(jr.out, declared{script: strings.Join(jr.lines, "\n"), source: jr.name + ", recipe " + jr.current})
	}
	jr.current, jr.lines = "", nil
}

func taskfile(dir string) []declared {
	var doc struct {
		Tasks map[string]struct {
			Cmds []yaml.Node `yaml:"cmds"`
			Dir  string      `yaml:"dir"`
		} `yaml:"tasks"`
	}
	name := ""
	for _, n := range []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"} {
		if data := readCapped(filepath.Join(dir, n)); data != nil && decodeYAML(data, &doc) {
			name = n
			break
		}
	}
	var out []declared
	for _, t := range sortedKeys(doc.Tasks) {
		if !checkTargets()[t] {
			continue
		}
		if lines := taskCommands(doc.Tasks[t].Cmds); len(lines) > 0 {
			out = append(out, declared{script: strings.Join(lines, "\n"), source: name + ", task " + t})
		}
	}
	return out
}

// taskCommands are a task's commands: each a string, or a {cmd: ...} entry (a {task: ...} runs
// another task and is left out).
func taskCommands(cmds []yaml.Node) []string {
	var lines []string
	for _, c := range cmds {
		if c.Kind == yaml.ScalarNode {
			lines = append(lines, c.Value)
			continue
		}
		var m struct {
			Cmd string `yaml:"cmd"`
		}
		if decodeNode(&c, &m) && m.Cmd != "" {
			lines = append(lines, m.Cmd)
		}
	}
	return lines
}

// --- tox and nox ------------------------------------------------------------------------------

// toxEnvs reads the commands of tox.ini's [testenv] and [testenv:NAME] sections. Each command is
// run as it is, in the current environment, rather than through tox, which would build a fresh
// virtualenv per env on every run.
func toxEnvs(dir string) []declared {
	data := readCapped(filepath.Join(dir, "tox.ini"))
	if data == nil {
		return nil
	}
	ini := parseToxIni(data)
	var out []declared
	for _, s := range ini.sections {
		if d, ok := ini.env(s); ok {
			out = append(out, d)
		}
	}
	return out
}

// toxIni is what toxEnvs reads of tox.ini: each env's keys' values (a key continued over
// indented lines has one value per line), by section, in the order the sections come.
type toxIni struct {
	sections     []string
	values       map[string]map[string][]string
	section, key string // where the reading is
}

func parseToxIni(data []byte) *toxIni {
	ini := &toxIni{values: map[string]map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ini.line(sc.Text())
	}
	return ini
}

// line reads one line: a section header, a key's continuation, or a key of an env's section.
func (ini *toxIni) line(raw string) {
	line := strings.TrimSpace(raw)
	switch {
	case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
	case strings.HasPrefix(line, "["):
		ini.section, ini.key = strings.TrimSpace(strings.Trim(line, "[]")), ""
	case raw[0] == ' ' || raw[0] == '\t':
		if ini.key != "" {
			ini.values[ini.section][ini.key] = append(ini.values[ini.section][ini.key], line)
		}
	default:
		ini.keyLine(line)
	}
}

// keyLine starts a key (NAME = value) of the current section, when that is an env's.
func (ini *toxIni) keyLine(line string) {
	ini.key = ""
	k, v, ok := strings.Cut(line, "=")
	if !ok || (ini.section != "testenv" && !strings.HasPrefix(ini.section, "testenv:")) {
		return
	}
	if ini.values[ini.section] == nil {
		ini.values[ini.section] = map[string][]string{}
		ini.sections = append(ini.sections, ini.section)
	}
	ini.key = strings.TrimSpace(k)
	if v = strings.TrimSpace(v); v != "" {
		ini.values[ini.section][ini.key] = append(ini.values[ini.section][ini.key], v)
	}
}

// env is the check of one env's section; false when it runs no command.
func (ini *toxIni) env(s string) (declared, bool) {
	env, unit := "testenv", ""
	if strings.HasPrefix(s, "testenv:") {
		env = strings.TrimPrefix(s, "testenv:")
		unit = env
	}
	var lines []string
	for _, l := range toxLogicalLines(ini.values[s]["commands"], toxFactors(unit)) {
		lines = appendToxCommand(lines, l)
	}
	if len(lines) == 0 {
		return declared{}, false
	}
	// setenv is what the commands run with (PYTHONWARNINGS=error); an env has the base's too.
	vars := toxSetenv(ini.values["testenv"]["setenv"])
	if s != "testenv" {
		vars = mergeEnv(vars, toxSetenv(ini.values[s]["setenv"]))
	}
	return declared{script: strings.Join(lines, "\n"), source: "tox.ini, env " + env, unit: unit, env: vars}, true
}

// toxLogicalLines are the commands of an env with the given factors as tox reads them: each
// physical line's factor condition first (`py310: ...`, `!ci: ...`: kept, without it, when it
// holds), then lines ending in a backslash joined with the next.
func toxLogicalLines(physical []string, factors map[string]bool) []string {
	var out []string
	continued := false
	for _, l := range physical {
		if m := toxFactor().FindString(l); m != "" {
			if !toxCondition(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m), ":")), factors) {
				continue
			}
			l = strings.TrimSpace(l[len(m):])
		}
		if continued {
			out[len(out)-1] += " " + l
		} else {
			out = append(out, l)
		}
		last := &out[len(out)-1]
		continued = strings.HasSuffix(*last, "\\")
		*last = strings.TrimSpace(strings.TrimSuffix(*last, "\\"))
	}
	return out
}

// toxFactors are the factors of an env's name (py310-django: py310 and django); none for the
// base env, which stands for any.
func toxFactors(env string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.Split(env, "-") {
		if f != "" {
			out[f] = true
		}
	}
	return out
}

// toxCondition reports whether a factor condition holds for factors: alternatives by comma,
// each factor of one joined by dashes, ! negating one.
func toxCondition(cond string, factors map[string]bool) bool {
	for _, alt := range strings.Split(cond, ",") {
		holds := true
		for _, f := range strings.Split(alt, "-") {
			neg := strings.HasPrefix(f, "!")
			if factors[strings.TrimPrefix(f, "!")] == neg {
				holds = false
			}
		}
		if holds {
			return true
		}
	}
	return false
}

// toxSetenv reads setenv's NAME=value lines, leaving out other factors' lines and values tox
// would still substitute ({toxinidir}).
func toxSetenv(lines []string) []EnvVar {
	var out []EnvVar
	for _, l := range lines {
		if toxFactor().MatchString(l) {
			continue
		}
		name, value, ok := strings.Cut(l, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !assignment().MatchString(name+"=") || strings.Contains(value, "{") || !keepEnv(name, value) {
			continue
		}
		out = append(out, EnvVar{Name: name, Value: value})
	}
	return out
}

// mergeEnv is base with over's variables replacing those of the same name.
func mergeEnv(base, over []EnvVar) []EnvVar {
	out := slices.Clone(base)
	for _, v := range over {
		if i := slices.IndexFunc(out, func(e EnvVar) bool { return e.Name == v.Name }); i >= 0 {
			out[i] = v
		} else {
			out = append(out, v)
		}
	}
	return out
}

// toxFactor is a factor-conditional line (`coverage: coverage xml`, `!py310: ...`): it runs only in
// the envs with that factor, not in the env the gate stands for.
var toxFactor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^!?[A-Za-z0-9_.{},!-]+:\s`) })

// toxEnvDefault is tox's `{env:NAME:default}`: outside tox, the default.
var toxEnvDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{env:[A-Za-z_][A-Za-z0-9_]*:([^{}]*)\}`) })

// appendToxCommand adds one line of a tox env's commands as the gate would run it: without the
// lines of other factors, with {env:X:default} read as its default, {toxinidir} as the root and
// {posargs:DEFAULT} as its default.
func appendToxCommand(lines []string, line string) []string {
	// tox's own prefixes: - ignores the exit code, ! inverts it (tox 4).
	line = strings.TrimLeft(line, "-!")
	line = toxEnvDefault().ReplaceAllString(line, "$1")
	line = toxRoot().ReplaceAllStringFunc(line, func(root string) string {
		if strings.HasSuffix(root, "/") {
			return ""
		}
		return "."
	})
	line = toxPosargs().ReplaceAllString(line, "$1")
	if strings.TrimSpace(line) == "" {
		return lines
	}
	return append(lines, strings.Join(strings.Fields(line), " "))
}

// toxRoot is tox's {toxinidir} (tox 4: {tox_root}), the folder the commands are read from as
// they run from the project's root: {toxinidir}/docs is docs, {toxinidir} alone ".".
var toxRoot = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{(?:toxinidir|tox_root)\}/?`)
})

// toxPosargs is tox's {posargs} or {posargs:DEFAULT}: tox passes no arguments here, so it is
// the default, or nothing.
var toxPosargs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{posargs(?::([^{}]*))?\}`) })

// toxTOML reads tox 4's TOML form: tox.toml, or [tool.tox] in pyproject.toml, where env_run_base
// is every env's base and env.NAME one env; each command is a list of words.
func toxTOML(dir string) []declared {
	doc, label := toxTOMLDoc(dir)
	if doc == nil {
		return nil
	}
	var out []declared
	add := func(env, unit string, table any) {
		if lines := toxTOMLCommands(table); len(lines) > 0 {
			out = append(out, declared{script: strings.Join(lines, "\n"), source: label + ", " + env, unit: unit})
		}
	}
	add("env_run_base", "", doc["env_run_base"])
	envs, _ := doc["env"].(map[string]any)
	for _, name := range sortedKeys(envs) {
		add("env "+name, name, envs[name])
	}
	return out
}

// toxTOMLDoc is tox's TOML config, tox.toml or else pyproject.toml's [tool.tox], with the name a
// source comment gives it; nil when there is none.
func toxTOMLDoc(dir string) (map[string]any, string) {
	var doc map[string]any
	if _, err := toml.Decode(string(readCapped(filepath.Join(dir, "tox.toml"))), &doc); err == nil && len(doc) > 0 {
		return doc, "tox.toml"
	}
	var py map[string]any
	if _, err := toml.Decode(string(readCapped(filepath.Join(dir, "pyproject.toml"))), &py); err != nil {
		return nil, ""
	}
	tool, _ := py["tool"].(map[string]any)
	doc, _ = tool["tox"].(map[string]any)
	return doc, "pyproject.toml [tool.tox]"
}

// toxTOMLCommands are an env table's commands, each a list of words; {replace = "posargs"} and
// the like have no value here.
func toxTOMLCommands(table any) []string {
	t, _ := table.(map[string]any)
	cmds, _ := t["commands"].([]any)
	var lines []string
	for _, c := range cmds {
		words, _ := c.([]any)
		var ws []string
		for _, w := range words {
			if s, ok := w.(string); ok {
				ws = append(ws, quoteWord(s))
			}
		}
		if len(ws) > 0 {
			lines = append(lines, strings.Join(ws, " "))
		}
	}
	return lines
}

var (
	// noxDecorated is a session: @nox.session (or @session, imported from nox), with or without
	// arguments, other decorators (@nox.parametrize) after it, then the function; lines end
	// with \n or, saved on Windows, \r\n.
	noxDecorated = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^@(nox\.)?session\b(?:\(([^)]*)\))?[ \t]*\r?\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	})
	noxImportsSession = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^from\s+nox\s+import\s+[^\n]*\bsession\b`) })
	noxName           = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bname\s*=\s*["']([^"']+)["']`) })
	noxRun            = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`session\.run\(([^)]*)\)`) })
	// pyKeywordArgs starts the keyword arguments of a call (external=True, env={...}): no words of
	// the command it runs.
	pyKeywordArgs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,\s*[A-Za-z_][A-Za-z0-9_]*\s*=[^=]`) })
	pyString      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*["']([^"']*)["']\s*$`) })
	// pyTopLevel starts a statement of the module (a def, a decorator, an assignment); a
	// signature's closing line, `) -> None:`, starts with no letter.
	pyTopLevel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n[A-Za-z_@]`) })
)

// noxSessions reads the sessions of a noxfile: each session.run("tool", "arg", ...) whose
// arguments are all string literals is a command; a session whose commands are computed is
// declared with why, to be named rather than dropped.
func noxSessions(dir string) []declared {
	data := string(readCapped(filepath.Join(dir, "noxfile.py")))
	if data == "" {
		return nil
	}
	bareSession := noxImportsSession().MatchString(data)
	var out []declared
	defs := noxDecorated().FindAllStringSubmatchIndex(data, -1)
	for i, d := range defs {
		if d[2] < 0 && !bareSession {
			continue // @session of something other than nox
		}
		end := len(data)
		if i+1 < len(defs) {
			end = defs[i+1][0]
		}
		// The body ends at the next statement of the module: a helper function between two
		// sessions is no part of the one before it.
		if loc := pyTopLevel().FindStringIndex(data[d[1]:end]); loc != nil {
			end = d[1] + loc[0]
		}
		name := data[d[6]:d[7]]
		if d[4] >= 0 {
			if m := noxName().FindStringSubmatch(data[d[4]:d[5]]); m != nil {
				name = m[1]
			}
		}
		if s, ok := noxSession(name, data[d[1]:end]); ok {
			out = append(out, s)
		}
	}
	return out
}

// noxSession is the session name's commands read from its body; false when it runs nothing
// (a session that only installs).
func noxSession(name, body string) (declared, bool) {
	d := declared{source: "noxfile.py, session " + name, unit: name}
	var lines []string
	checks := false
	for _, m := range noxRun().FindAllStringSubmatch(body, -1) {
		args := withoutKeywordArgs(m[1])
		words, ok := literalArgs(args)
		switch {
		case ok && len(words) > 0:
			lines = append(lines, strings.Join(words, " "))
			checks = checks || maybeCheck(pythonModule(words))
		case !ok && d.unread == "" && maybeCheck(computedPrefix(args)):
			d.unread = unreadNoxSession(name, computedPrefix(args))
		}
	}
	d.script = strings.Join(lines, "\n")
	if checks {
		// What was read gates the session (a computed variant beside it, `*coverage, "run", "-m",
		// "pytest"`, is the same check run another way): naming it as unknown too would contradict it.
		d.unread = ""
	}
	return d, d.script != "" || d.unread != ""
}

// pythonModule is the command a `python -m MODULE ...` runs, as the module's own (pytest ...);
// any other command as it is.
func pythonModule(words []string) []string {
	if len(words) > 2 && (words[0] == "python" || words[0] == "python3") && words[1] == "-m" {
		return words[2:]
	}
	return words
}

// unreadNoxSession says why a session is not gated: its command is computed, shown by its leading
// words where they are literal.
func unreadNoxSession(name string, prefix []string) string {
	shown := ""
	if prefix[0] != "?" {
		shown = " (`" + strings.Join(prefix, " ") + " ...`)"
	}
	return fmt.Sprintf("nox session %s (`nox -s %s`): its command is computed in Python%s, init cannot tell what it runs", name, name, shown)
}

// withoutKeywordArgs is a call's arguments without its keyword arguments.
func withoutKeywordArgs(args string) string {
	if loc := pyKeywordArgs().FindStringIndex(args); loc != nil {
		return args[:loc[0]]
	}
	return args
}

// computedPrefix is the leading string-literal words of a computed session.run (the program and
// its fixed subcommand); "?" when even the program is computed.
func computedPrefix(args string) []string {
	var words []string
	for _, a := range strings.Split(args, ",") {
		s := pyString().FindStringSubmatch(a)
		if s == nil || s[1] == "" {
			break
		}
		words = append(words, s[1])
	}
	if len(words) == 0 {
		return []string{"?"}
	}
	return words
}

// literalArgs are the arguments of a Python call as shell words, when every one is a string
// literal; false when one is computed. A trailing *posargs (the user's extra arguments to the
// session) is no part of the command the session runs.
func literalArgs(args string) ([]string, bool) {
	var words []string
	for _, a := range strings.Split(args, ",") {
		if a = strings.TrimSpace(a); a == "" || a == "*posargs" || a == "*session.posargs" {
			continue
		}
		s := pyString().FindStringSubmatch(a)
		if s == nil {
			return nil, false
		}
		words = append(words, quoteWord(s[1]))
	}
	return words, true
}

// --- helpers ----------------------------------------------------------------------------------

// decodeYAML decodes what it can: a value of an unexpected type somewhere (a list under a
// step's `with:`) must not hide every other step of the file. Only a document that does not
// parse at all counts as unreadable.
func decodeYAML(data []byte, v any) bool {
	return tolerable(yaml.Unmarshal(data, v))
}

func decodeNode(n *yaml.Node, v any) bool {
	return tolerable(n.Decode(v))
}

func tolerable(err error) bool {
	var te *yaml.TypeError
	return err == nil || errors.As(err, &te)
}

func stringOrList(n *yaml.Node) []string {
	switch n.Kind {
	case yaml.ScalarNode:
		return []string{n.Value}
	case yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			out = append(out, stringOrList(c)...)
		}
		return out
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// cleanDir turns a working directory as CI writes it (./web, web/) into a folder relative to
// the root; one that climbs out or is absolute is the root's business no more.
func cleanDir(d string) string {
	d = strings.TrimSpace(d)
	if d == "" || strings.Contains(d, "${{") || strings.HasPrefix(d, "$") {
		return ""
	}
	d = path.Clean(strings.ReplaceAll(d, "\\", "/"))
	if d == "." || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "..") {
		return ""
	}
	return d
}

// matrixExpression is ${{ matrix.NAME }}.
var matrixExpression = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{\{\s*matrix\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}`)
})

// firstMatrixValues takes the first value of each list in a job's matrix: CI runs the check once
// per value, the gate once, with CI's first.
func firstMatrixValues(m map[string]yaml.Node) map[string]string {
	out := map[string]string{}
	for k, n := range m {
		if k != "include" && firstScalar(n) {
			out[k] = n.Content[0].Value
		}
	}
	// A matrix of `include:` entries only runs its first entry first; a key it lacks stays
	// unknown (empty to GitHub, but then the expression usually falls back to another value).
	if inc, ok := m["include"]; ok && len(out) == 0 {
		maps.Copy(out, firstInclude(inc))
	}
	return out
}

// firstInclude is the first entry of a matrix's include: list, nil when there is none.
func firstInclude(inc yaml.Node) map[string]string {
	if inc.Kind != yaml.SequenceNode || len(inc.Content) == 0 {
		return nil
	}
	var first map[string]string
	if !decodeNode(inc.Content[0], &first) {
		return nil
	}
	return first
}

// firstScalar reports whether a node is a list whose first item is a value.
func firstScalar(n yaml.Node) bool {
	return n.Kind == yaml.SequenceNode && len(n.Content) > 0 && n.Content[0].Kind == yaml.ScalarNode
}

func substituteMatrix(s string, matrix map[string]string) string {
	return matrixExpression().ReplaceAllStringFunc(s, func(e string) string {
		if v, ok := matrix[matrixExpression().FindStringSubmatch(e)[1]]; ok {
			return v
		}
		return e
	})
}

// ciOnlyEnv are variables that only shape CI's own output or are set by every runner anyway, and
// PATH, which is the machine's.
var ciOnlyEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"CI": true, "FORCE_COLOR": true, "TERM": true, "NO_COLOR": true, "GITHUB_TOKEN": true,
		"GH_TOKEN": true, "CARGO_TERM_COLOR": true, "PY_COLORS": true, "RUST_BACKTRACE": true, "PATH": true, "HOME": true,
		"GOBIN": true, "GOPATH": true}
})

// keepEnv reports whether a variable CI or a recipe sets is one a gate should set too: not one
// that only shapes output (colours, backtraces), not a secret, not a value still to be expanded.
func keepEnv(name, value string) bool {
	return !ciOnlyEnv()[name] && !plumbingEnv(name, value) && !strings.ContainsAny(value, "$`")
}

// plumbingEnv reports a variable that serves CI rather than the check: colours, secrets and
// credentials, an action kept in a variable for YAML anchors (CHECKOUT_ACTION:
// actions/checkout@v4), and the package installers' settings (PIP_*, UV_*, npm's config), which
// only the install steps read.
func plumbingEnv(name, value string) bool {
	for _, part := range []string{"COLOR", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "PRIVATE_KEY", "CREDENTIAL"} {
		if strings.Contains(name, part) {
			return true
		}
	}
	for _, prefix := range []string{"PIP_", "UV_", "NPM_CONFIG_", "npm_config_", "YARN_", "PNPM_", "POETRY_", "CARGO_REGISTR", "ACTIONS_"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return strings.HasSuffix(name, "_ACTION") || actionRef().MatchString(value)
}

// actionRef is a GitHub action's reference: owner/repo@ref, owner/repo/path@ref.
var actionRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.-]+/[\w./-]+@[\w.-]+$`) })

// stepEnv is the environment a step sees, the later maps winning, with matrix values in place:
// what the check needs to mean in the gate what it means in CI. Values still holding an
// expression (secrets, other steps' outputs) are left out; so are variables that only shape CI's
// output.
func stepEnv(matrix map[string]string, envs ...map[string]string) []EnvVar {
	merged := map[string]string{}
	for _, e := range envs {
		for k, v := range e {
			merged[k] = substituteMatrix(expressionValue(v, matrix, merged), matrix)
		}
	}
	var out []EnvVar
	for _, k := range sortedKeys(merged) {
		v := merged[k]
		if strings.Contains(v, "${{") || !keepEnv(k, v) {
			continue
		}
		out = append(out, EnvVar{Name: k, Value: v})
	}
	return out
}

// expressionValue is a value that is one whole expression worked out with the matrix and the
// env so far, when it can be; any other value as it is.
func expressionValue(v string, matrix, env map[string]string) string {
	if m := wholeExpression().FindStringSubmatch(strings.TrimSpace(v)); m != nil {
		if val, ok := evalExpression(m[1], matrix, env); ok {
			return val
		}
	}
	return v
}

// wholeExpression is a value that is one expression: `${{ matrix.x == 'a' && ” || 'b' }}`.
var wholeExpression = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$\{\{(.*)\}\}$`) })
