package findings

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// A workspace's task runners print each package's output under its name: turbo prefixes every
// line with "web:lint: ", nx starts each task with "> nx run web:lint". The tools under them name
// files relative to the package's folder, so a finding's file is found under the folder of the
// workspace package of that name (package.json "name", the packages listed by
// pnpm-workspace.yaml or package.json "workspaces").

// Bounds of reading a workspace's packages: it happens once per gate, on the goroutine that
// drains the gate's output, and must not hold it up.
const (
	maxWorkspacePackages = 500
	maxManifestBytes     = 256 << 10
	workspaceReadBudget  = 2 * time.Second
)

var (
	// nxTask is nx's line starting a task's output: "> nx run web:lint" (and its arguments).
	nxTask = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^>\s+nx run ([^\s:]+):\S+`) })
	// taskName is what a task runner's prefix may name: a package and a task, no blank.
	taskName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(@[\w.-]+/)?[\w.-]+:[\w.:-]+$`) })
)

// workspaceTasks reads the task prefixes of a workspace's output: the folder of the package
// each line is of.
type workspaceTasks struct {
	dir     string            // where the workspace's manifests are: the gate's directory
	folders map[string]string // package name → its folder relative to dir; nil until read
	nx      string            // the folder of the nx task whose output is being read
}

func newWorkspaceTasks(root, dir string) *workspaceTasks {
	if root == "" {
		return nil
	}
	return &workspaceTasks{dir: filepath.Join(root, filepath.FromSlash(dir))}
}

// may says from its bytes whether line may be a task's: in an nx task's output, nx's own line,
// or a "name:task: " prefix in a workspace not yet known to list no package.
func (w *workspaceTasks) may(line []byte) bool {
	switch {
	case w == nil:
		return false
	case w.nx != "" || len(line) > 0 && line[0] == '>':
		return true
	case w.folders != nil && len(w.folders) == 0:
		return false
	}
	i := bytes.Index(line, []byte(": "))
	return i > 0 && bytes.IndexByte(line[:i], ':') > 0 && bytes.IndexByte(line[:i], ' ') < 0
}

// strip takes a task runner's prefix off line, and says the folder of the package the line is
// of: "" when it names none (a line of no task, a package the workspace does not list).
func (w *workspaceTasks) strip(line string) (string, string) {
	if w == nil {
		return line, ""
	}
	if m := nxTask().FindStringSubmatch(line); m != nil {
		w.nx = w.folder(m[1])
		return line, ""
	}
	if strings.HasPrefix(line, " >  NX ") || strings.HasPrefix(line, ">  NX ") {
		w.nx = "" // nx's summary: the tasks' output has ended
	}
	head, rest, ok := strings.Cut(line, ": ")
	if !ok || !taskName().MatchString(head) {
		return line, w.nx
	}
	pkg := head[:strings.IndexByte(head[1:], ':')+1]
	if folder := w.folder(pkg); folder != "" {
		return rest, folder
	}
	return line, w.nx
}

// folder is the folder of the workspace package named name, reading the workspace once.
func (w *workspaceTasks) folder(name string) string {
	if w.folders == nil {
		w.folders = readWorkspace(w.dir, time.Now().Add(workspaceReadBudget))
	}
	return w.folders[name]
}

// readWorkspace maps the names of dir's workspace packages to their folders; empty when dir is
// no workspace.
func readWorkspace(dir string, deadline time.Time) map[string]string {
	folders := map[string]string{}
	for _, pattern := range workspacePatterns(dir, deadline) {
		matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
		if err != nil {
			continue
		}
		for _, m := range matches {
			if len(folders) >= maxWorkspacePackages || time.Now().After(deadline) {
				return folders
			}
			rel, err := filepath.Rel(dir, m)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				continue
			}
			if name := manifestName(m, deadline); name != "" {
				if _, taken := folders[name]; !taken {
					folders[name] = filepath.ToSlash(rel)
				}
			}
		}
	}
	return folders
}

// workspacePatterns are the folders a workspace lists (pnpm-workspace.yaml's packages, or
// package.json's workspaces), as globs ("**" read as "*"; exclusions left out).
func workspacePatterns(dir string, deadline time.Time) []string {
	var listed []string
	if data, err := safefile.ReadFile(filepath.Join(dir, "pnpm-workspace.yaml"), maxManifestBytes, deadline); err == nil {
		var pnpm struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(data, &pnpm) == nil {
			listed = pnpm.Packages
		}
	}
	if len(listed) == 0 {
		listed = packageWorkspaces(dir, deadline)
	}
	var out []string
	for _, p := range listed {
		p = strings.TrimSuffix(strings.ReplaceAll(path.Clean(p), "**", "*"), "/")
		if p != "" && !strings.HasPrefix(p, "!") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// packageWorkspaces reads package.json's "workspaces": a list, or {"packages": [...]}.
func packageWorkspaces(dir string, deadline time.Time) []string {
	data, err := safefile.ReadFile(filepath.Join(dir, "package.json"), maxManifestBytes, deadline)
	if err != nil {
		return nil
	}
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Workspaces) == 0 {
		return nil
	}
	var list []string
	if json.Unmarshal(pkg.Workspaces, &list) == nil {
		return list
	}
	var nested struct {
		Packages []string `json:"packages"`
	}
	if json.Unmarshal(pkg.Workspaces, &nested) == nil {
		return nested.Packages
	}
	return nil
}

// manifestName is the "name" of dir's package.json, "" when it has none.
func manifestName(dir string, deadline time.Time) string {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	data, err := safefile.ReadFile(filepath.Join(dir, "package.json"), maxManifestBytes, deadline)
	if err != nil {
		return ""
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Name
}
