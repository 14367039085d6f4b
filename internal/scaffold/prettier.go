package scaffold

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A project that formats with prettier at its root checks every file there, .gauntlet.yml among
// them, and prettier would reformat the file init writes (other quotes, flow lists broken over
// lines): its format gate would fail on a clean tree. prettier skips what .prettierignore lists
// (and, from version 3, what .gitignore lists), so init lists its file there.

// prettierConfigs are the files that configure prettier for a folder.
var prettierConfigs = []string{".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.yaml", ".prettierrc.yml",
	".prettierrc.toml", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.ts", "prettier.config.js",
	"prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts", ".prettierignore"}

// UsesPrettier reports whether the folder formats with prettier: a config or ignore file of its
// own, a prettier dependency, or a "prettier" key in its package.json.
func UsesPrettier(dir string) bool {
	if firstExisting(dir, prettierConfigs) != "" {
		return true
	}
	var pkg map[string]json.RawMessage
	if json.Unmarshal(readCapped(filepath.Join(dir, "package.json")), &pkg) != nil {
		return false
	}
	_, configured := pkg["prettier"]
	return configured || slices.ContainsFunc([]string{"dependencies", "devDependencies"}, func(key string) bool {
		return dependsOnPrettier(pkg[key])
	})
}

// dependsOnPrettier reports whether a package.json dependency list names prettier.
func dependsOnPrettier(list json.RawMessage) bool {
	var deps map[string]any
	return json.Unmarshal(list, &deps) == nil && deps["prettier"] != nil
}

// PrettierIgnore returns .prettierignore with name appended when it lacks it; false when it
// lists it already (in any spelling that matches the same file).
func PrettierIgnore(existing []byte, name string) ([]byte, bool) {
	for _, line := range strings.Split(string(existing), "\n") {
		if normalizeIgnore(line) == name {
			return existing, false
		}
	}
	var b bytes.Buffer
	b.Write(existing)
	if len(existing) > 0 && !bytes.HasSuffix(existing, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("# gauntlet's config, written by gauntlet init\n" + name + "\n")
	return b.Bytes(), true
}

// RunsPrettier reports whether a gate's command (run in dir, relative to root) runs prettier:
// itself, through the package scripts it names (and those they run), or through a task
// runner's file that mentions it. Only then can prettier's check fail on the file init writes.
func RunsPrettier(root, dir, run string) bool {
	if prettierReachesRoot(run) {
		return true
	}
	abs := filepath.Join(root, filepath.FromSlash(dir))
	var pkg packageJSON
	if json.Unmarshal(readCapped(filepath.Join(abs, "package.json")), &pkg) == nil {
		scripts := checkableScripts(pkg)
		for _, ref := range scriptRefs(scripts, run) {
			for s := range scriptClosure(scripts, ref) {
				if prettierReachesRoot(scripts[s]) {
					return true
				}
			}
		}
	}
	// make, just and task recipes are not followed target by target: one that mentions
	// prettier anywhere may run it.
	for _, runner := range []struct{ word, file string }{{"make", "Makefile"}, {"just", "justfile"}, {"task", "Taskfile.yml"}} {
		if slices.Contains(strings.Fields(run), runner.word) && bytes.Contains(readCapped(filepath.Join(abs, runner.file)), []byte("prettier")) {
			return true
		}
	}
	return false
}

// prettierReachesRoot reports whether a script may run prettier on the file init writes at the
// root: a prettier command given the root (.), a glob that matches the file, or no path at all.
// One scoped to folders (prettier -c src test) never reads it. A script that mentions prettier
// in a way not read here (make prettier, a script of that name) is taken to reach it.
func prettierReachesRoot(script string) bool {
	if !strings.Contains(script, "prettier") {
		return false
	}
	ran := false
	for _, cmd := range splitCommands(script) {
		w := withoutNodeRunner(downloadedTool(cmd.words))
		if len(w) == 0 || w[0] != "prettier" {
			continue
		}
		ran = true
		if prettierPathsReachRoot(w[1:]) {
			return true
		}
	}
	return !ran
}

// prettierValueFlags are prettier's options whose value is the next word.
var prettierValueFlags = []string{"--config", "--ignore-path", "--plugin", "--log-level", "--cache-location",
	"--cache-strategy", "--parser", "--stdin-filepath", "--config-precedence", "--end-of-line", "--trailing-comma",
	"--arrow-parens", "--print-width", "--tab-width", "--quote-props", "--prose-wrap", "--object-wrap",
	"--html-whitespace-sensitivity", "--embedded-language-formatting", "--cursor-offset", "--range-start", "--range-end"}

// prettierPathsReachRoot reports whether prettier's arguments name the root or a glob matching a
// dotfile there (prettier's globs match dotfiles); true when they name no path.
func prettierPathsReachRoot(args []string) bool {
	paths := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if slices.Contains(prettierValueFlags, a) {
				i++
			}
			continue
		}
		paths++
		p := strings.TrimPrefix(a, "./")
		if p == "" || p == "." || p == rootConfigProbe {
			return true
		}
		if ok, err := doublestar.Match(p, rootConfigProbe); err == nil && ok {
			return true
		}
	}
	return paths == 0
}

// rootConfigProbe stands for the config init writes at the root when a glob is tried on it.
const rootConfigProbe = ".gauntlet.yml"
