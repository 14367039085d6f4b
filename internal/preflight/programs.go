package preflight

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// Programs checks that the program each enabled check gate starts (argv[0], or the first command
// word of its run: string) can be found where the gate will look for it. Programs the tools table
// knows are Check's, with their install commands; this covers every other one, so that a typo or
// a tool never installed is named before the gate errors with exit 127.
func Programs(root string, gs []gates.Gate) []Problem {
	return ProgramsEnv(root, gs, System())
}

// ProgramsEnv is Programs on env.
func ProgramsEnv(root string, gs []gates.Gate, env Env) []Problem {
	var out []Problem
	for _, g := range gs {
		if !g.Enabled || g.Kind != gates.KindCheck {
			continue
		}
		prog, cwd, ok := startedProgram(g)
		if !ok {
			continue
		}
		if _, known := tools()[prog]; known {
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(g.Dir), filepath.FromSlash(cwd))
		if p, missing := lookProgram(prog, root, dir, env); missing {
			p.Gate = g.Name
			out = append(out, hedged(p, doubt(g, gs, env)))
		}
	}
	return out
}

// lookProgram finds prog as a gate in dir would: a path relative to dir, or a name on PATH. When
// it is not there, the problem says where else it is, and is Sure only when it is nowhere.
func lookProgram(prog, root, dir string, env Env) (Problem, bool) {
	if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, filepath.Separator) {
		return lookProgramPath(prog, root, dir, env)
	}
	if _, err := env.LookPath(prog); err == nil {
		return Problem{}, false
	}
	if p, ok := offPathProblem(prog, root, dir, env); ok {
		return p, true
	}
	return Problem{Tool: prog, Message: prog + " is not on PATH", Sure: true,
		Fix: "install " + prog + ", or correct the gate's command"}, true
}

// lookProgramPath looks for a program named by its path, relative to dir.
func lookProgramPath(prog, root, dir string, env Env) (Problem, bool) {
	path := prog
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, filepath.FromSlash(prog))
	}
	if env.Exists(path) {
		return Problem{}, false
	}
	// Windows adds an extension from PATHEXT (gradlew: gradlew.bat), which is not looked for
	// here: there the problem is only a warning.
	return Problem{Tool: prog, Message: prog + " does not exist in " + relTo(root, dir), Sure: runtime.GOOS != "windows",
		Fix: "correct the gate's command, or create " + relTo(root, path)}, true
}

// offPathProblem says where a program missing from PATH is, or may come from: a project's
// node_modules/.bin or .venv, or dependencies not installed yet.
func offPathProblem(prog, root, dir string, env Env) (Problem, bool) {
	for _, d := range uniqueDirs(dir, root) {
		if bin := filepath.Join(d, "node_modules", ".bin"); env.Exists(filepath.Join(bin, prog)) {
			return Problem{Tool: prog, Message: prog + " is in " + relTo(root, bin) + " but not on PATH: the gate will not find it",
				Fix: "run it through the package manager (npx " + prog + ", pnpm exec " + prog + ") or a package.json script"}, true
		}
		if venv := filepath.Join(d, ".venv"); env.Exists(filepath.Join(venv, "bin", prog)) {
			return Problem{Tool: prog, Message: prog + " is in " + relTo(root, venv) + " but not on PATH",
				Fix: "activate the environment (. .venv/bin/activate) before running gauntlet, or run the tool through uv run"}, true
		}
	}
	for _, d := range uniqueDirs(dir, root) {
		if env.Exists(filepath.Join(d, "package.json")) && !env.Exists(filepath.Join(d, "node_modules")) {
			return Problem{Tool: prog, Message: prog + " is not on PATH; it may come with the project's dependencies, which are not installed",
				Fix: inDir(root, d, "npm install") + ", then run it through npx " + prog}, true
		}
	}
	return Problem{}, false
}

func uniqueDirs(dir, root string) []string {
	if dir == root {
		return []string{root}
	}
	return []string{dir, root}
}

// hedged keeps a sure problem sure only when nothing could bring the program by the time the
// gate runs; otherwise it names that doubt.
func hedged(p Problem, doubt string) Problem {
	if p.Sure && doubt != "" {
		p.Sure = false
		p.Doubt = doubt
	}
	return p
}

// doubt says why a program missing here may still be found when the gate runs, or "".
func doubt(g gates.Gate, all []gates.Gate, env Env) string {
	for _, kv := range g.Env {
		if strings.HasPrefix(kv, "PATH=") {
			return "the gate's env sets its own PATH"
		}
	}
	ci := truthy(env.Getenv("CI"))
	switch {
	case g.When == gates.WhenCI && !ci:
		return "the gate runs only in CI"
	case g.When == gates.WhenLocal && ci:
		return "the gate runs only outside CI"
	}
	if step := neededSetup(g, all); step != "" {
		return "setup step " + step + " may install it"
	}
	return ""
}

func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// neededSetup names a setup step g needs, directly or through the gates it needs, or "".
func neededSetup(g gates.Gate, all []gates.Gate) string {
	seen := map[string]bool{g.Name: true}
	queue := slices.Clone(g.Needs)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		i := slices.IndexFunc(all, func(o gates.Gate) bool { return o.Name == name })
		if i < 0 {
			continue
		}
		if all[i].Setup {
			return name
		}
		queue = append(queue, all[i].Needs...)
	}
	return ""
}

// Words at the start of a line that only prepare the command after them: skipped when they are
// followed by && or ;, so that `cd web && eslint .` is judged on eslint, in web.
var preparing = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"export": true, "set": true, "unset": true, "umask": true, "ulimit": true, ":": true, "true": true}
})

// shellWords are the builtins and keywords of sh and bash: a line that starts with one of them
// (a test, a loop, a function) is not judged, since what it runs, and whether, is not plain.
var shellWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"!": true, ".": true, "[": true, "[[": true, "alias": true, "bg": true, "break": true, "builtin": true, "case": true,
		"command": true, "continue": true, "declare": true, "do": true, "done": true, "echo": true, "elif": true,
		"else": true, "esac": true, "eval": true, "exit": true, "false": true, "fc": true, "fg": true, "fi": true,
		"for": true, "function": true, "getopts": true, "hash": true, "if": true, "jobs": true, "kill": true,
		"let": true, "local": true, "printf": true, "pwd": true, "read": true, "readonly": true, "return": true,
		"select": true, "shift": true, "source": true, "test": true, "then": true, "time": true, "times": true,
		"trap": true, "type": true, "typeset": true, "ulimit": true, "until": true, "wait": true, "while": true,
	}
})

// startedProgram is the program a gate starts and the directory (relative to the gate's) it is
// looked up from; ok is false when that is not plain from the command alone.
func startedProgram(g gates.Gate) (prog, cwd string, ok bool) {
	if len(g.Argv) > 0 {
		return firstProgram([]segment{{words: g.Argv, then: ""}})
	}
	switch g.Shell {
	case oscmd.ShellDefault:
		if runtime.GOOS == "windows" {
			return "", "", false // sh or cmd, depending on what is installed
		}
	case oscmd.ShellSh, oscmd.ShellBash:
	default:
		return "", "", false
	}
	return firstProgram(segments(g.Run))
}

// segment is one simple command of a line and the operator after it.
type segment struct {
	words []string
	then  string // "&&", ";", or "" when the line ends or continues otherwise (||, |, &)
}

// segments cuts a shell line at its operators, up to the first one after which the next command
// may not run (||) or runs beside it (|, &): what follows those is never judged.
func segments(line string) []segment {
	var out []segment
	start := 0
	for i := 0; i < len(line); {
		switch {
		case strings.HasPrefix(line[i:], "&&"):
			out = append(out, segment{words: strings.Fields(line[start:i]), then: "&&"})
			i += 2
			start = i
		case line[i] == ';' || line[i] == '\n':
			out = append(out, segment{words: strings.Fields(line[start:i]), then: ";"})
			i++
			start = i
		case line[i] == '|' || line[i] == '&':
			return append(out, segment{words: strings.Fields(line[start:i])})
		default:
			i++
		}
	}
	return append(out, segment{words: strings.Fields(line[start:])})
}

// firstProgram walks the leading commands that only prepare (assignments, cd, export) to the first
// that starts a program.
func firstProgram(segs []segment) (prog, cwd string, ok bool) {
	for _, s := range segs {
		words, plain := commandWords(s.words)
		if !plain {
			return "", "", false
		}
		if len(words) == 0 {
			continue
		}
		w := words[0]
		switch {
		case w == "cd":
			if cwd, ok = cdInto(cwd, words, s.then); !ok {
				return "", "", false
			}
			continue
		case preparing()[w] && s.then != "":
			continue
		case shellWords()[w] || preparing()[w] || !plainWord(w):
			return "", "", false
		}
		if cwd == "" {
			cwd = "."
		}
		return w, cwd, true
	}
	return "", "", false
}

// commandWords are a command's words from its command name on, past leading assignments and an
// env or exec prefix; plain is false when what runs cannot be told from the words: a quoted or
// expanded assignment, or env's or exec's options (env -i, exec -a), which change what runs.
func commandWords(words []string) (rest []string, plain bool) {
	for len(words) > 0 && assignment().MatchString(words[0]) {
		if strings.ContainsAny(words[0], "'\"`$") {
			return nil, false
		}
		words = words[1:]
	}
	if len(words) == 0 || words[0] != "env" && words[0] != "exec" {
		return words, true
	}
	words = skipAssignments(words[1:])
	return words, len(words) == 0 || !strings.HasPrefix(words[0], "-")
}

// cdInto is the folder a `cd DIR` followed by another command leads to from cwd; ok is false
// for any other cd (an option, an absolute or unplain path, a path out of the project, the last
// command).
func cdInto(cwd string, words []string, then string) (string, bool) {
	if !isPlainCd(words, then) {
		return "", false
	}
	next := filepath.ToSlash(filepath.Join(cwd, words[1]))
	return next, filepath.IsLocal(next)
}

func isPlainCd(words []string, then string) bool {
	return len(words) == 2 && then != "" && plainWord(words[1]) && !filepath.IsAbs(words[1]) && !strings.HasPrefix(words[1], "-")
}

// plainWord is a word the shell takes as it is: no quoting, expansion, glob or redirection.
func plainWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !isPlainRune(r) {
			return false
		}
	}
	return true
}

func isPlainRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-/@%:,", r)
}
