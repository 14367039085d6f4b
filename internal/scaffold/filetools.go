package scaffold

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
)

// shellcheck and markdownlint judge each file by itself, in any kind of project: where the
// project runs them, their gate is given the change's files ({files}) within the scope the
// project declares (the paths its command names, an action's inputs), with its own flags. The
// scope is translated only where it is plain: a gate wider than what the project checks could
// fail on a clean tree, so anything else stays a note of what init left out.

// fileTool is how one such tool's command becomes a gate given the change's files.
type fileTool struct {
	key, comment, note string
	name               string // the gate's name, when not the program's
	glob               []string
	// exactPaths: the paths the command names are the files it checks (shellcheck); otherwise a
	// folder stands for the files of the tool's glob under it (markdownlint).
	exactPaths bool
	valueFlags []string // take the next word as their value
	dropped    []string // write, print or fix rather than check
	// scope reads a path argument as a glob of the gate's paths, or of its exclude (a negated
	// glob); false when it is no plain scope.
	scope func(arg string) (glob string, exclude, ok bool)
}

var (
	shellGlob    = []string{"**/*.sh", "**/*.bash"}
	markdownGlob = []string{"**/*.md"}
)

const (
	noteFilesShellcheck   = "{files}: shellcheck is given the change's shell scripts within the scope the project checks."
	noteFilesMarkdownlint = "{files}: markdownlint is given the change's Markdown files; its config files still hold."
)

var fileTools = sync.OnceValue(func() map[string]fileTool {
	return map[string]fileTool{
		"shellcheck": {key: "shellcheck", comment: "shell scripts, as shellcheck judges them", note: noteFilesShellcheck,
			glob: shellGlob, exactPaths: true, scope: shellScope, dropped: []string{"-f", "--format", "-C", "--color"},
			valueFlags: []string{"-e", "--exclude", "-i", "--include", "-f", "--format", "-s", "--shell", "-S", "--severity",
				"-o", "--enable", "-P", "--source-path", "-W", "--wiki-link-count", "--rcfile", "-C", "--color"}},
		"markdownlint-cli2": {key: "markdownlint-cli2", comment: "Markdown files, as markdownlint judges them",
			note: noteFilesMarkdownlint, glob: markdownGlob, scope: markdownScope, dropped: []string{"--fix"},
			valueFlags: []string{"--config"}},
		"markdownlint": {key: "markdownlint", comment: "Markdown files, as markdownlint judges them",
			note: noteFilesMarkdownlint, glob: markdownGlob, scope: markdownScope,
			dropped: []string{"-f", "--fix", "-o", "--output", "-j", "--json"},
			valueFlags: []string{"-c", "--config", "-i", "--ignore", "-p", "--ignore-path", "-r", "--rules", "-o",
				"--output", "--disable", "--enable", "--configPointer"}},
		// Yelp's detect-secrets, as its pre-commit hook runs it: each file by itself, against the
		// baseline of secrets the project has accepted.
		"detect-secrets-hook": {key: "detect-secrets", name: "detect-secrets", comment: "secrets in the files, as detect-secrets finds them",
			note: noteFilesSecrets, glob: []string{"**"}, exactPaths: true, scope: shellScope, dropped: []string{"--json"},
			valueFlags: []string{"--baseline", "--exclude-lines", "--exclude-files", "--exclude-secrets", "--word-list",
				"--disable-plugin", "-p", "--plugin", "-f", "--filter", "--disable-filter", "-c", "--cores"}},
	}
})

const noteFilesSecrets = "{files}: detect-secrets is given the change's files; its baseline still holds."

// classifyFileTool is a shellcheck or markdownlint command as a gate given the change's files:
// its flags kept (less those that change its output), its paths as the gate's scope.
func classifyFileTool(tool string, words []string) (check, bool) {
	t := fileTools()[tool]
	c := check{key: t.key, name: cmp.Or(t.name, tool), comment: t.comment, timeout: quick, glob: t.glob, filesNote: t.note}
	flags, ok := t.split(words[1:], &c)
	// Without a path the command checks nothing init can see (its files come from a command's
	// output, $(git ls-files)), unless its source passes it the files ({files}: a hook, an action).
	passed := slices.Contains(words[1:], filesarg.Placeholder)
	if !ok || len(c.filePaths) == 0 && !passed {
		return check{}, false
	}
	if t.skipsHidden(flags, c.filePaths) {
		c.fileExclude = append(c.fileExclude, hiddenFiles...)
	}
	c.words = slices.Concat([]string{words[0]}, flags, []string{filesarg.Placeholder})
	return c, true
}

// hiddenFiles are the files and folders whose name starts with a dot.
var hiddenFiles = []string{"**/.*", "**/.*/**"}

// skipsHidden reports whether the globs a command names leave out hidden files, which
// gauntlet's globs match: the shell's `*`, and markdownlint's globs without --dot.
func (t fileTool) skipsHidden(flags, paths []string) bool {
	if t.exactPaths {
		return slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "*") })
	}
	return len(paths) > 0 && !slices.Contains(flags, "--dot") && !slices.Contains(flags, "-d")
}

// split parts a command's arguments into the flags the gate keeps and its scope (into c); false
// when an argument is no plain scope or reads what init cannot see ($VAR, a command's output).
func (t fileTool) split(args []string, c *check) ([]string, bool) {
	var flags []string
	for i := 0; i < len(args); i++ {
		if !t.read(args, &i, c, &flags) {
			return nil, false
		}
	}
	return flags, true
}

// read takes the argument at i (a flag, with its value, or a path) into flags or c's scope.
func (t fileTool) read(args []string, i *int, c *check, flags *[]string) bool {
	a := args[*i]
	switch {
	case a == filesarg.Placeholder:
		return true
	case unseen(a) || a == "-" || a == "--stdin" || t.key == "markdownlint" && a == "-s":
		return false
	case strings.HasPrefix(a, "-"):
		return t.keep(args, i, c, flags)
	}
	glob, exclude, ok := t.scope(a)
	switch {
	case !ok:
		return false
	case exclude:
		c.fileExclude = append(c.fileExclude, withContents(glob)...)
	default:
		c.filePaths = append(c.filePaths, glob)
	}
	return true
}

// unseen reports whether a word is filled in by the shell from what init cannot see: a
// variable, a command's output.
func unseen(w string) bool { return strings.ContainsAny(w, "$`") }

// keep adds the flag at i (and its value) to flags unless it is dropped; markdownlint's --ignore
// is the gate's exclude. False for a value init cannot read.
func (t fileTool) keep(args []string, i *int, c *check, flags *[]string) bool {
	a := args[*i]
	name, v, _ := strings.Cut(a, "=")
	value := !strings.Contains(a, "=") && contains(t.valueFlags, a)
	if value {
		if *i+1 >= len(args) || unseen(args[*i+1]) {
			return false
		}
		*i++
		v = args[*i]
	}
	switch {
	case t.key == "markdownlint" && (name == "-i" || name == "--ignore"):
		if !plainGlob(v) {
			return false
		}
		c.fileExclude = append(c.fileExclude, withContents(path.Clean(v))...)
	case contains(t.dropped, name):
	case value:
		*flags = append(*flags, a, args[*i])
	default:
		*flags = append(*flags, a)
	}
	return true
}

// shellScope: the shell expands a command's paths, and without globstar `**` is `*`: only plain
// paths and one-level globs are read.
func shellScope(arg string) (string, bool, bool) {
	if strings.Contains(arg, "**") || !plainGlob(arg) {
		return "", false, false
	}
	return path.Clean(arg), false, true
}

// markdownScope: markdownlint expands its globs itself (`**` any depth); markdownlint-cli2's
// `#glob` (and `!glob`) leaves files out. A folder stands for the Markdown files under it.
func markdownScope(arg string) (string, bool, bool) {
	exclude := strings.HasPrefix(arg, "#") || strings.HasPrefix(arg, "!")
	arg = strings.TrimLeft(arg, "#!")
	if !plainGlob(arg) {
		return "", false, false
	}
	arg = path.Clean(arg)
	if !exclude && path.Ext(arg) == "" && !strings.Contains(arg, "*") {
		if arg == "." {
			return "**", false, true
		}
		arg += "/**"
	}
	return arg, exclude, true
}

// withContents is an ignored path and, as markdownlint leaves out a folder it ignores whole, what
// is under it.
func withContents(glob string) []string {
	if strings.HasSuffix(glob, "/**") {
		return []string{glob}
	}
	return []string{glob, glob + "/**"}
}

// plainGlob reports whether a path or glob means the same to gauntlet as to the tool: no
// braces, classes or escapes, nothing outside the folder.
func plainGlob(g string) bool {
	return g != "" && !strings.ContainsAny(g, "{}[]\\'\"$`~") && !strings.HasPrefix(g, "/") &&
		!slices.Contains(strings.Split(g, "/"), "..")
}

// fileToolKeys are the checks fileToolGates makes gates of.
var fileToolKeys = []string{"shellcheck", "markdownlint-cli2", "markdownlint", "detect-secrets"}

// fileToolGates gives each folder's project the shellcheck and markdownlint gates its folder
// runs; a folder without a project names them in left instead.
func fileToolGates(all *[]Project, checks []found, left map[string][]string) {
	for _, key := range fileToolKeys {
		var dirs []string
		for _, f := range checks {
			if f.key == key && !contains(dirs, f.dir) {
				dirs = append(dirs, f.dir)
			}
		}
		for _, dir := range dirs {
			g, shown := fileToolGate(checks, key, dir)
			if dir == "" {
				// The root always has a project to hold its checks: a repository of scripts
				// and docs is gated as its CI gates it.
				addGates(all, dir, nil)
			}
			projects := *all
			i := slices.IndexFunc(projects, func(p Project) bool { return p.Dir == dir })
			switch {
			case i < 0:
				left[dir] = append(left[dir], shown)
			case !slices.ContainsFunc(projects[i].Gates, func(o Gate) bool { return o.Name == g.Name && len(o.Glob) > 0 }):
				// A package script's gate of the same tool (lint:md) is the same check.
				projects[i].Gates = append(projects[i].Gates, g)
			}
		}
	}
}

// fileToolGate is the gate of one tool in one folder, from the most preferred source that runs
// it there; shown is the command as a note would name it.
func fileToolGate(checks []found, key, dir string) (Gate, string) {
	var first *found
	var others []string
	for i := range checks {
		f := &checks[i]
		switch {
		case f.key != key || f.dir != dir:
		case first == nil:
			first = f
		case f.source != first.source && !contains(others, f.source):
			others = append(others, f.source)
		}
	}
	g := fileToolGateOf(first, dir)
	g.Source = sourceComment(first.source, others)
	return g, "`" + g.Run + "` with " + gateScope(dir, g) + " (" + first.source + ")"
}

// fileToolGateOf is the gate of a file tool's check run in dir.
func fileToolGateOf(first *found, dir string) Gate {
	named := inFolderGlobs(dir, first.filePaths)
	glob := first.glob
	if fileTools()[first.name].exactPaths && len(named) > 0 {
		glob = named // shellcheck bin/deploy checks bin/deploy, whatever its name
	}
	g := Gate{Name: first.name, Comment: first.comment, Run: strings.Join(quoteAll(first.words), " "),
		Timeout: first.timeout, Source: "from " + first.source, Env: first.env, Glob: glob,
		FilesNote: first.filesNote, Paths: slices.Concat(first.paths, named),
		Exclude: slices.Concat(first.exclude, inFolderGlobs(dir, first.fileExclude))}
	return g
}

// gateScope says, for a note, where a gate that has no project to join would run and on what.
func gateScope(dir string, g Gate) string {
	out := "dir: " + dir
	for _, f := range []struct {
		key   string
		globs []string
	}{{"paths", g.Paths}, {"exclude", g.Exclude}, {"glob", g.Glob}} {
		if len(f.globs) > 0 {
			out += ", " + f.key + ": [" + strings.Join(f.globs, ", ") + "]"
		}
	}
	return out
}

// inFolderGlobs are globs relative to a folder, relative to the root.
func inFolderGlobs(dir string, globs []string) []string {
	if dir == "" {
		return globs
	}
	out := make([]string, len(globs))
	for i, g := range globs {
		out[i] = escapeGlob(dir) + "/" + g
	}
	return out
}

// fileToolAction is a shellcheck or markdownlint-cli2 action's step as the command it runs
// locally, its inputs read as that command's flags and scope; the action, to be named, when
// init cannot read its inputs. False for another action.
func fileToolAction(s ghStep) (declared, bool) {
	name, _, _ := strings.Cut(strings.ToLower(s.Uses), "@")
	var script string
	var paths, exclude []string
	ok := false
	switch name {
	case "ludeeus/action-shellcheck":
		script, paths, exclude, ok = shellcheckAction(s)
	case "davidanson/markdownlint-cli2-action":
		script, ok = markdownlintAction(s.With)
	default:
		return declared{}, false
	}
	// An action runs at the top of the checkout, whatever the job's working directory.
	if cmds := splitCommands(script); ok && len(cmds) == 1 {
		if _, known := classify(cmds[0].words); known {
			return declared{script: script, rank: rankCI, what: s.Name, paths: paths, exclude: exclude}, true
		}
	}
	return declared{uses: s.Uses, rank: rankCI, what: s.Name}, true
}

// shellcheckAction reads ludeeus/action-shellcheck's inputs: severity and SHELLCHECK_OPTS are
// flags, scandir the paths, ignore_paths and ignore_names (find's `! -path '*/P/*'`, `! -name
// N`) the exclude. Its additional_files only add files: leaving them out narrows.
func shellcheckAction(s ghStep) (string, []string, []string, bool) {
	words := []string{"shellcheck", filesarg.Placeholder}
	if sev := s.With["severity"]; sev != "" {
		words = append(words, "-S", sev)
	}
	words = append(words, strings.Fields(s.Env["SHELLCHECK_OPTS"])...)
	var paths, exclude []string
	if d := strings.TrimSpace(s.With["scandir"]); d != "" && path.Clean(d) != "." {
		if !plainGlob(d) {
			return "", nil, nil, false
		}
		paths = []string{path.Clean(d) + "/**"}
	}
	for _, p := range strings.Fields(s.With["ignore_paths"]) {
		exclude = append(exclude, "**/"+strings.Trim(path.Clean(p), "/")+"/**")
	}
	for _, n := range strings.Fields(s.With["ignore_names"]) { // find's -name: the file's own name
		exclude = append(exclude, "**/"+n)
	}
	if !slices.ContainsFunc(slices.Concat(words[2:], exclude), func(w string) bool { return !plainGlob(w) }) {
		return strings.Join(quoteAll(words), " "), paths, exclude, true
	}
	return "", nil, nil, false
}

// markdownlintAction reads davidanson/markdownlint-cli2-action's inputs: its globs (one a line,
// by default the Markdown files at the top) and config. One that fixes files passes in CI with
// what it fixed, which a check would fail on: not read.
func markdownlintAction(with map[string]string) (string, bool) {
	if with["fix"] != "" && with["fix"] != "false" || with["command"] == "fix" {
		return "", false
	}
	sep := cmpOr(with["separator"], "\n")
	globs := strings.Split(cmpOr(strings.TrimSpace(with["globs"]), "*.md"), sep)
	words := []string{"markdownlint-cli2"}
	if c := with["config"]; c != "" {
		words = append(words, "--config", c)
	}
	for _, g := range globs {
		if g = strings.TrimSpace(g); g != "" {
			words = append(words, g)
		}
	}
	return strings.Join(quoteAll(words), " "), true
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// fileToolScripts are the gates of the package scripts that run shellcheck or markdownlint
// alone and say they check (lint:md, lint:sh), which no gate runs: the tool given the change's
// files, through the package manager when the package depends on it.
func (n *nodeScan) fileToolScripts() []Gate {
	var out []Gate
	for _, name := range sortedKeys(n.scripts) {
		c, ok := fileToolScript(name, n.scripts[name])
		if !ok || scriptCovered(n.scripts, n.runs, n.kept, n.p.Gates, n.pm, name) {
			continue
		}
		if n.dependsOn(c.words[0]) || n.dependsOn(c.words[0]+"-cli") {
			c.words = append(strings.Fields(n.pm.exec), c.words...)
		}
		f := found{check: c, dir: n.c.rel, source: n.src + ", script " + name}
		out = append(out, fileToolGateOf(&f, n.c.rel))
	}
	return out
}

// fileToolScript is the check of a package script that says it checks and runs one file tool
// alone, in a scope init reads.
func fileToolScript(name, script string) (check, bool) {
	cmds := splitCommands(script)
	c, ok := pipedFileTool(cmds)
	if !ok && len(cmds) == 1 {
		c, ok = classify(cmds[0].words)
	}
	return c, ok && c.filesNote != "" && hasCheckWord([]string{name})
}

// fileToolScriptReads reports whether a package script is one fileToolScripts makes a gate of.
func fileToolScriptReads(name, script string) bool {
	_, ok := fileToolScript(name, script)
	return ok
}
