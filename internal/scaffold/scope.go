package scaffold

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// rootPaths are the files a root project's gates depend on, by kind, when the repository also
// holds other projects: a change elsewhere must not rerun them. Config files count only when
// they exist, so that the written paths name nothing imaginary.
var rootPaths = sync.OnceValue(func() map[string]struct{ globs, configs []string } {
	return map[string]struct{ globs, configs []string }{
		"Go": {globs: []string{"**/*.go", "go.mod", "go.sum", "**/testdata/**"},
			configs: append([]string{"go.work", "go.work.sum"}, golangciConfigs...)},
		"Rust": {globs: []string{"**/*.rs", "**/Cargo.toml", "Cargo.lock"},
			configs: []string{"clippy.toml", ".clippy.toml", "rustfmt.toml", ".rustfmt.toml", "rust-toolchain.toml", ".cargo/config.toml"}},
		"Python": {globs: []string{"**/*.py", "**/*.pyi", "pyproject.toml"},
			configs: []string{"setup.cfg", "setup.py", "tox.ini", "noxfile.py", "mypy.ini", ".mypy.ini", "ruff.toml", ".ruff.toml",
				"pyrightconfig.json", "uv.lock", "poetry.lock", ".pre-commit-config.yaml"}},
	}
})

// nodeShared are a Node workspace's root files that its folders' gates depend on when the folder
// has no lock file of its own: the lock file and the workspace's own manifest and configs.
var nodeShared = []string{"package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "yarn.lock", "package-lock.json",
	"bun.lock", "bun.lockb", ".npmrc", "tsconfig.json", "tsconfig.base.json"}

// scope gives every gate paths when the repository holds more than one project, so that a change
// in one reruns only its own gates: a folder's project gets its folder (and the root files it
// shares), the root project gets the files of its kind and excludes the folders. A Cargo
// workspace's gates get its Rust files even alone, since its members are sub-projects too.
func scope(root string, projects []Project) {
	subdirs, multi := gatedFolders(projects)
	for i := range projects {
		p := &projects[i]
		workspace := p.Kind == "Rust" && p.Tool == "workspace"
		switch {
		case multi || workspace:
			scopeProject(root, p, subdirs)
		case p.Kind == "Go" && p.Dir == "":
			scopeGoModule(root, p)
		}
	}
}

// scopeProject gives a project's gates its paths, and the root project's the other projects'
// folders as exclude.
func scopeProject(root string, p *Project, subdirs []string) {
	paths, exclude := folderPaths(root, *p), []string(nil)
	if p.Dir == "" {
		paths, exclude = rootProjectPaths(root, p.Kind, subdirs)
	}
	for j := range p.Gates {
		// A hook's own files: pattern is narrower; a gate with a glob takes its files wherever
		// they are, as the tool does.
		if len(p.Gates[j].Paths) == 0 && len(p.Gates[j].Glob) == 0 {
			p.Gates[j].Paths = withoutOthersConfigs(paths, p.Gates[j].Run)
		}
		// A gate's own exclusions (what its tool must never be given) stay.
		p.Gates[j].Exclude = slices.Concat(exclude, p.Gates[j].Exclude)
	}
}

// gatedFolders are the folders other than the root whose projects have gates, and whether
// more than one place (the root counting) has them.
func gatedFolders(projects []Project) ([]string, bool) {
	var subdirs []string
	dirs := map[string]bool{}
	for _, p := range projects {
		if len(p.Gates) == 0 {
			continue
		}
		dirs[p.Dir] = true
		if p.Dir != "" && !slices.Contains(subdirs, p.Dir) {
			subdirs = append(subdirs, p.Dir)
		}
	}
	return subdirs, len(dirs) > 1
}

// folderPaths are the paths of a folder's project: the folder, and the root files it shares (a
// Node project without a lock file of its own: the root's workspace files; a Go module: go.work).
func folderPaths(root string, p Project) []string {
	if p.Dir == "" {
		return nil
	}
	paths := []string{escapeGlob(p.Dir) + "/**"}
	if p.Kind == "Node" && !hasLockFile(filepath.Join(root, filepath.FromSlash(p.Dir))) {
		paths = append(paths, existing(root, nodeShared)...)
	}
	if p.Kind == "Go" {
		paths = append(paths, existing(root, []string{"go.work", "go.work.sum"})...)
	}
	return paths
}

// rootProjectPaths are the paths of the root project, the files of its kind (anything, for a
// kind without its own), and the other projects' folders it excludes.
func rootProjectPaths(root, kind string, subdirs []string) (paths, exclude []string) {
	paths = []string{"**"}
	if rp, ok := rootPaths()[kind]; ok {
		paths = append(slices.Clone(rp.globs), existing(root, rp.configs)...)
	}
	for _, d := range subdirs {
		exclude = append(exclude, escapeGlob(d)+"/**")
	}
	return paths, exclude
}

// scopeGoModule gives a lone Go module's gates that run nothing but Go's tools the module's Go
// files as paths (and what they embed): a change to the README or the CI file then runs none of
// them. A gate that runs anything else has inputs init cannot know, and runs on every change.
func scopeGoModule(root string, p *Project) {
	rp := rootPaths()["Go"]
	paths := append(slices.Clone(rp.globs), existing(root, rp.configs)...)
	for i := range p.Gates {
		g := &p.Gates[i]
		if !plainGo(g.Run) {
			continue
		}
		g.Paths = withoutOthersConfigs(paths, g.Run)
		for _, in := range g.Inputs {
			if !slices.Contains(g.Paths, in) && !strings.HasSuffix(in, ".go") {
				g.Paths = append(g.Paths, in) // //go:embed patterns, vendor/modules.txt
			}
		}
	}
}

// withoutOthersConfigs leaves out of a gate's paths the configs of a tool it does not run:
// golangci-lint's config changes nothing for gofmt or go test, which would rerun for it.
func withoutOthersConfigs(paths []string, run string) []string {
	out := slices.Clone(paths)
	if !strings.Contains(run, "golangci-lint") {
		out = slices.DeleteFunc(out, func(p string) bool { return contains(golangciConfigs, p) })
	}
	return out
}

// plainGo reports whether a command runs only Go's own tools on the module's Go files.
func plainGo(run string) bool {
	if run == gofmtCheck || run == gofmtSimplifyCheck {
		return true
	}
	for _, prefix := range []string{"go test ", "go vet ", "go mod tidy ", "golangci-lint run", "staticcheck "} {
		if onlyGoTools(run, prefix) {
			return true
		}
	}
	return false
}

func hasLockFile(dir string) bool {
	for _, pm := range packageManagers {
		for _, l := range pm.lockFile {
			if exists(dir, l) {
				return true
			}
		}
	}
	return false
}

func existing(root string, names []string) []string {
	var out []string
	for _, n := range names {
		if exists(root, filepath.FromSlash(n)) {
			out = append(out, n)
		}
	}
	return out
}
