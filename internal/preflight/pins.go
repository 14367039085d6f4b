package preflight

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// A tool the project pins (asdf's .tool-versions, mise.toml, .go-version, the golangci-lint
// action's version:, package.json's packageManager) judges the code as that version does: a newer
// golangci-lint reports findings the pinned one does not, so a gate run with another version
// fails, or passes, where the project's own run would not. The pin is read, never installed.

// pin is a version the project pins a tool at, and where.
type pin struct{ version, where string }

// pinNames are the names the pin files give a program, by program.
var pinNames = map[string][]string{"go": {"go", "golang"}, "gofmt": {"go", "golang"}, "node": {"node", "nodejs"}}

// maxWorkflowFiles bounds how many workflow files are read for an action's pinned version.
const maxWorkflowFiles = 50

// pinOf is the version the project pins prog at, in dir or the root: the first of the pin files
// that names it.
func pinOf(prog, root, dir string) (pin, bool) {
	names := pinNames[prog]
	if names == nil {
		names = []string{prog}
	}
	for _, read := range []func(root, dir string) map[string]pin{toolVersionsPins, misePins, goVersionPin, packageManagerPin, actionPins} {
		pins := read(root, dir)
		for _, n := range names {
			if p, ok := pins[n]; ok && plainVersion(p.version) {
				return p, true
			}
		}
	}
	return pin{}, false
}

// plainVersion reports a version the installed one can be compared with: 1.61, v1.61.0, not
// latest, a range or a path.
func plainVersion(v string) bool {
	return plainPin().MatchString(v)
}

var plainPin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v?\d+(?:\.\d+){0,2}$`) })

// matchesPin reports whether have is the pinned version, to the pin's precision: 0.10 pins the
// 0.10 series, 1.61.0 that release.
func matchesPin(have, want string) bool {
	h, w := numbers(have), numbers(want)
	if len(h) < len(w) {
		return false
	}
	for i := range w {
		if h[i] != w[i] {
			return false
		}
	}
	return true
}

// toolVersionsPins reads asdf's .tool-versions: "TOOL VERSION [FALLBACK...]" per line.
func toolVersionsPins(root, dir string) map[string]pin {
	out := map[string]pin{}
	for _, line := range strings.Split(string(nearest(root, dir, ".tool-versions")), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if f := strings.Fields(line); len(f) >= 2 {
			out[f[0]] = pin{strings.TrimPrefix(f[1], "v"), ".tool-versions"}
		}
	}
	return out
}

// misePins reads [tools] of mise.toml (or .mise.toml): NAME = "VERSION", ["VERSION", ...] or
// { version = "VERSION" }.
func misePins(root, dir string) map[string]pin {
	out := map[string]pin{}
	for _, name := range []string{"mise.toml", ".mise.toml"} {
		var doc struct {
			Tools map[string]any `toml:"tools"`
		}
		data := nearest(root, dir, name)
		if data == nil || toml.Unmarshal(data, &doc) != nil {
			continue
		}
		for tool, v := range doc.Tools {
			if s := miseVersion(v); s != "" {
				out[strings.TrimPrefix(tool, "aqua:")] = pin{strings.TrimPrefix(s, "v"), name}
			}
		}
		return out
	}
	return out
}

func miseVersion(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		if len(v) > 0 {
			return miseVersion(v[0])
		}
	case map[string]any:
		return miseVersion(v["version"])
	}
	return ""
}

// goVersionPin reads .go-version (goenv, and setup-go's go-version-file).
func goVersionPin(root, dir string) map[string]pin {
	if v := strings.TrimSpace(string(nearest(root, dir, ".go-version"))); v != "" {
		return map[string]pin{"go": {strings.TrimPrefix(v, "go"), ".go-version"}}
	}
	return nil
}

// packageManagerPin reads package.json's packageManager: "pnpm@9.1.0+sha512...".
func packageManagerPin(root, dir string) map[string]pin {
	var pkg struct {
		PackageManager string `json:"packageManager"`
	}
	if json.Unmarshal(nearest(root, dir, "package.json"), &pkg) != nil || pkg.PackageManager == "" {
		return nil
	}
	name, version, ok := strings.Cut(pkg.PackageManager, "@")
	if !ok {
		return nil
	}
	version, _, _ = strings.Cut(version, "+")
	return map[string]pin{name: {version, "package.json packageManager"}}
}

// pinningActions are the actions that install a tool at their version: input.
var pinningActions = map[string]string{"golangci/golangci-lint-action": "golangci-lint"}

// actionPins reads the version: input of the actions that install a check's tool, in the root's
// GitHub workflows.
func actionPins(root, _ string) map[string]pin {
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.y*ml"))
	sort.Strings(files)
	out := map[string]pin{}
	for i, f := range files {
		if i == maxWorkflowFiles {
			break
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if yaml.Unmarshal(readProjectFile(f), &wf) != nil {
			continue
		}
		for _, job := range wf.Jobs {
			for _, s := range job.Steps {
				action, _, _ := strings.Cut(strings.ToLower(s.Uses), "@")
				tool := pinningActions[action]
				if v := s.With["version"]; tool != "" && v != "" {
					out[tool] = pin{v, ".github/workflows/" + filepath.Base(f) + " " + action[strings.IndexByte(action, '/')+1:] + " version"}
				}
			}
		}
	}
	return out
}

// checkPin adds a problem when the installed prog is not the version the project pins. A version
// that cannot be read is not judged.
func checkPin(prog, root, dir string, env Env, add func(Problem)) {
	p, ok := pinOf(prog, root, dir)
	if !ok {
		return
	}
	name, argv, parse := prog, []string{prog, "--version"}, plainVersionOut
	if prog == "go" || prog == "gofmt" {
		name, argv, parse = "Go", []string{"go", "env", "GOVERSION"}, goVersionOut
	}
	out, err := env.Version(dir, argv...)
	if err != nil {
		return
	}
	m := parse().FindStringSubmatch(out)
	if m == nil || matchesPin(m[1], p.version) {
		return
	}
	add(Problem{Tool: name + " version", Message: name + " " + m[1] + " is not the version the project pins (" + p.where + ": " +
		p.version + "): its findings may differ from the project's",
		Fix: "install " + name + " " + p.version + ", or run gauntlet where the project's version manager (mise, asdf, corepack) puts it on PATH"})
}
