package scaffold

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A shell script of the project's that CI or a hook runs by its name alone (scripts/check,
// scripts/test: the "scripts to rule them all" layout) holds the project's checks as a make
// target's recipe does: init reads it like one, so that its ruff, mypy and pytest become gates
// from the script rather than gauntlet's defaults, and the script is not named as a check init
// does not know. Only a flat script is read: sh or bash, no functions; its top-level variables
// (export SOURCE_FILES="httpx tests") are filled in, and "$@" (what the caller passes) dropped.

// followedScripts are the scripts the declared CI steps and hooks run, each read as a declared
// script of its own ("scripts/check, run by .github/workflows/ci.yml, job tests").
func followedScripts(decls []declared, root string) []declared {
	var out []declared
	seen := map[string]bool{}
	// A followed script may run another (scripts/test runs scripts/check): those are read too,
	// each once.
	queue := decls
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if !(d.rank <= rankLefthook || d.followed) || d.rank == rankCI && releaseWorkflow(d.source) {
			continue
		}
		for _, cmd := range splitCommands(d.script) {
			dir := path.Join(d.dir, cmd.cd)
			if dir == "." {
				dir = ""
			}
			text, ok := followableScript(root, dir, cmd.words)
			script := path.Clean(scriptPath(cmd.words))
			if !ok || seen[dir+"\x00"+script] {
				continue
			}
			seen[dir+"\x00"+script] = true
			f := declared{script: text, dir: dir, rank: rankCalledTarget, followed: true, via: cmd.words,
				source: script + ", run by " + d.source, env: d.env}
			out = append(out, f)
			queue = append(queue, f)
		}
	}
	return out
}

// followableScript is the text of the script a command runs, its variables filled in, when it
// is a flat shell script of the project's whose name says it checks; false otherwise.
func followableScript(root, dir string, words []string) (string, bool) {
	script := scriptPath(words)
	if script == "" || !projectPath(script) || hasSetupWord([]string{script}) || !hasCheckWord([]string{path.Base(script)}) ||
		wholeSystemTest(path.Base(script)) {
		return "", false
	}
	name := filepath.Join(root, filepath.FromSlash(dir), filepath.FromSlash(script))
	if info, err := os.Stat(name); err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	data := string(readCapped(name))
	if !plainShell(data) || shellFunction().MatchString(data) {
		return "", false
	}
	return flatScript(data), true
}

// scriptPath is the script a command runs: its program, or the script its shell is given (bash
// scripts/lint.sh, sh -e ./scripts/test); "" for none (bash -c '...').
func scriptPath(words []string) string {
	if len(words) > 1 && contains([]string{"sh", "bash", "dash"}, words[0]) {
		if contains(words[1:], "-c") {
			return "" // a command line, not a script
		}
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				return w
			}
		}
		return ""
	}
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

// wholeSystemTest reports whether a script's name says it tests the whole system (integration,
// end-to-end, acceptance, smoke tests): those reach services, the network or a build CI made
// first, and would take the test gate from the unit suite. They stay named, not followed.
func wholeSystemTest(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"integration", "e2e", "end-to-end", "acceptance", "smoke", "system"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// plainShell reports whether a script's #! line runs it with sh, bash or dash: other shells (zsh)
// read the text differently, and a script without the line is not read.
func plainShell(data string) bool {
	first, _, _ := strings.Cut(data, "\n")
	if !strings.HasPrefix(first, "#!") {
		return false
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) == 0 {
		return false
	}
	shell := path.Base(fields[0])
	if shell == "env" && len(fields) > 1 {
		shell = fields[1]
	}
	return shell == "sh" || shell == "bash" || shell == "dash"
}

// shellFunction finds a function's definition: name() { or function name.
var shellFunction = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:function\s+[\w-]+|[\w-]+\s*\(\s*\))`)
})

// scriptAssignment is a top-level variable assignment: VAR=value or export VAR="value".
var scriptAssignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:export\s+)?([A-Za-z_]\w*)=(?:"([^"$` + "`" + `]*)"|'([^']*)'|([^\s"'$` + "`" + `;&|]*))\s*$`)
})

// flatScript is a script's commands with its top-level variables filled in (the first value
// each is given outside if, for, while and case) and the caller's arguments ("$@") dropped.
func flatScript(data string) string {
	vars := map[string]string{}
	depth := 0
	var lines []string
	for _, raw := range strings.Split(data, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := scriptAssignment().FindStringSubmatch(line); m != nil {
			if _, set := vars[m[1]]; !set && depth == 0 {
				vars[m[1]] = m[2] + m[3] + m[4]
			}
			continue
		}
		depth += blockDepth(line)
		lines = append(lines, line)
	}
	text := strings.Join(lines, "\n")
	for _, callers := range []string{`"$@"`, `"$*"`, "$@", "$*"} {
		text = strings.ReplaceAll(text, callers, "")
	}
	return os.Expand(text, func(name string) string {
		if v, ok := vars[name]; ok {
			return v
		}
		return "${" + name + "}" // not the script's: left for the shell
	})
}

// blockDepth is how much a line opens (if, for, while, case) or closes (fi, done, esac) blocks.
func blockDepth(line string) int {
	depth := 0
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' }) {
		switch w {
		case "if", "for", "while", "until", "case":
			depth++
		case "fi", "done", "esac":
			depth--
		}
	}
	return depth
}

// followedBy reports whether a declared command runs a script init reads as declared scripts of
// its own (followedScripts): its checks are there, and the command itself is none left out.
func followedBy(d declared, words []string) bool {
	if d.rank > rankLefthook && !d.followed {
		return false
	}
	_, ok := followableScript(d.root, d.dir, words)
	return ok
}

// scriptItself is the check a followed script's command makes when the script computes its
// arguments (shellcheck -x "${targets[@]}", the files a loop gathered): the tool's check, run as
// the script itself, since the command read here lost what it checks. false for any other
// command.
func scriptItself(d declared, words []string) (check, bool) {
	if d.via == nil || !computesArgs(words) {
		return check{}, false
	}
	bare := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return strings.Contains(w, "$") })
	c, ok := classify(bare)
	if !ok {
		w := withoutRunner(bare)
		if len(w) == 0 {
			return check{}, false
		}
		tool := path.Base(w[0])
		t, isFileTool := fileTools()[tool]
		if !isFileTool {
			return check{}, false
		}
		c = check{key: t.key, name: tool, comment: t.comment, timeout: quick}
	}
	c.words, c.fix, c.writes = d.via, nil, false
	c.glob, c.filePaths, c.fileExclude, c.filesNote = nil, nil, nil, ""
	return c, true
}

// computesArgs reports whether a command's arguments hold what the shell computes: a variable
// the script did not give a value, a command's output.
func computesArgs(words []string) bool {
	return len(words) > 1 && slices.ContainsFunc(words[1:], func(w string) bool { return strings.Contains(w, "$") })
}
