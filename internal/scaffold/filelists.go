package scaffold

import (
	"path"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
)

// A project often lists its scripts and hands them to shellcheck: `find . -name '*.sh' | xargs
// shellcheck`, `find ... -exec shellcheck {} +`, `git ls-files '*.sh' | xargs shellcheck`. The
// files listed are the gate's scope when every part of the listing reads as globs: anything
// else (-maxdepth, an exclude pathspec, a predicate init does not know) would be a wider
// gate, and stays a note.

// pipedFileTool is the check of one line that lists files for shellcheck or markdownlint.
func pipedFileTool(cmds []simpleCommand) (check, bool) {
	var lister, tool []string
	switch {
	case slices.ContainsFunc(cmds, func(c simpleCommand) bool { return c.cd != "" || len(c.words) == 0 }):
	case len(cmds) == 2 && cmds[1].words[0] == "xargs":
		lister, tool = cmds[0].words, xargsCommand(cmds[1].words[1:])
	case len(cmds) == 1 && cmds[0].words[0] == "find":
		lister, tool = findExec(cmds[0].words)
	}
	if len(tool) == 0 || len(lister) == 0 {
		return check{}, false
	}
	if _, ok := fileTools()[path.Base(tool[0])]; !ok {
		return check{}, false
	}
	globs, exclude, ok := listedFiles(lister)
	if !ok {
		return check{}, false
	}
	c, ok := classify(append(slices.Clone(tool), filesarg.Placeholder))
	c.filePaths = append(c.filePaths, globs...)
	c.fileExclude = append(c.fileExclude, exclude...)
	return c, ok
}

// xargsCommand is the command xargs runs (given the words after xargs), nil when an option
// changes how it is given the files (-I).
func xargsCommand(words []string) []string {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case contains([]string{"-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose"}, w):
		case contains([]string{"-n", "-P", "-L"}, w) && i+1 < len(words):
			i++
		case len(w) > 2 && contains([]string{"-n", "-P", "-L"}, w[:2]):
		case strings.HasPrefix(w, "-"):
			return nil
		default:
			return words[i:]
		}
	}
	return nil
}

// findExec parts `find ... -exec TOOL ARGS {} +` into the listing and the tool's command.
func findExec(words []string) (lister, tool []string) {
	i := slices.Index(words, "-exec")
	end := len(words) - 2
	if i < 0 || end <= i+1 || words[end] != "{}" || !contains([]string{"+", ";", `\;`}, words[end+1]) {
		return nil, nil
	}
	return words[:i], words[i+1 : end]
}

// listedFiles are the globs of the files a find or git ls-files lists, and those it leaves out.
func listedFiles(lister []string) (globs, exclude []string, ok bool) {
	switch {
	case lister[0] == "find":
		return findFiles(lister[1:])
	case hasPrefix(lister, "git", "ls-files"):
		globs, ok = lsFiles(lister[2:])
		return globs, nil, ok
	}
	return nil, nil, false
}

// findFiles reads find's folders and its -name, -not -path and -not -name tests.
func findFiles(args []string) (globs, exclude []string, ok bool) {
	var dirs []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "!" {
		d := strings.TrimSuffix(path.Clean(args[0]), "/")
		if !plainDir(d) {
			return nil, nil, false
		}
		dirs, args = append(dirs, d), args[1:]
	}
	names, exclude, ok := findTests(args)
	return underDirs(dirs, names), exclude, ok && len(names) > 0
}

// findTests reads find's tests: the names it lists (-name, joined by -o) and the globs it
// leaves out (-not -path, -not -name); false for any other test, which a glob cannot say.
func findTests(args []string) (names, exclude []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a, value := args[i], ""
		if i+1 < len(args) {
			value = args[i+1]
		}
		switch {
		case a == "-o" || a == "-print" || a == "-print0":
		case a == "-type" && value == "f":
			i++
		case a == "-name" && plainName(value):
			names, i = append(names, value), i+1
		case (a == "-not" || a == "!") && i+2 < len(args):
			x, ok := findExclude(args[i+1], args[i+2])
			if !ok {
				return nil, nil, false
			}
			exclude, i = append(exclude, x), i+2
		default:
			return nil, nil, false
		}
	}
	return names, exclude, true
}

// underDirs are the names, at any depth under the folders (the working directory when none).
func underDirs(dirs, names []string) []string {
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var out []string
	for _, d := range dirs {
		for _, n := range names {
			if d == "." {
				out = append(out, "**/"+n)
			} else {
				out = append(out, escapeGlob(d)+"/**/"+n)
			}
		}
	}
	return out
}

// findExclude is the glob of the files find's `-not -path P` or `-not -name N` leaves out. In
// -path, `*` matches `/` too: a `*` folder is `**`, and only the last part may start with one.
func findExclude(test, pattern string) (string, bool) {
	if test == "-name" && plainName(pattern) {
		return "**/" + pattern, true
	}
	if test != "-path" || !plainGlob(strings.TrimPrefix(pattern, "./")) {
		return "", false
	}
	parts := strings.Split(strings.TrimPrefix(pattern, "./"), "/")
	for i, p := range parts {
		switch {
		case p == "*":
			parts[i] = "**"
		case strings.HasPrefix(p, "*") && i == len(parts)-1:
			parts[i] = "**/" + p
		case strings.Contains(p, "*"):
			return "", false
		}
	}
	return strings.Join(parts, "/"), true
}

// lsFiles reads git ls-files' pathspecs, where `*` matches `/` too: `*.sh` is every .sh file,
// `scripts/*.sh` every one under scripts. Exclude pathspecs and options that list other files
// are not read.
func lsFiles(args []string) ([]string, bool) {
	var globs []string
	for _, a := range args {
		switch {
		case contains([]string{"-z", "--cached", "-c", "--"}, a):
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, ":") || !plainGlob(a):
			return nil, false
		default:
			g, ok := pathspecGlob(a)
			if !ok {
				return nil, false
			}
			globs = append(globs, g...)
		}
	}
	return globs, len(globs) > 0
}

// pathspecGlob is the globs of the files a plain pathspec matches: a path and what is under
// it, or a last part that starts with `*` at any depth.
func pathspecGlob(spec string) ([]string, bool) {
	spec = path.Clean(spec)
	dir, last := path.Split(spec)
	switch {
	case strings.Contains(dir, "*"):
		return nil, false
	case !strings.Contains(last, "*"):
		return []string{spec, spec + "/**"}, true
	case strings.HasPrefix(last, "*"):
		return []string{dir + "**/" + last}, true
	}
	return []string{spec}, true // test*.sh: these at least
}

// plainName is a -name pattern init reads as a glob of a file's name.
func plainName(n string) bool { return plainGlob(n) && !strings.Contains(n, "/") }

// plainDir is a folder find starts from, inside the project.
func plainDir(d string) bool { return plainGlob(d) && !strings.Contains(d, "*") }
