package scaffold

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// cargoManifest is the part of Cargo.toml that says whether it is a workspace and of what.
type cargoManifest struct {
	Workspace *struct {
		Members []string `toml:"members"`
	} `toml:"workspace"`
}

func readCargo(dir string) (cargoManifest, bool) {
	var m cargoManifest
	data := readCapped(filepath.Join(dir, "Cargo.toml"))
	if data == nil {
		return m, false
	}
	_, err := toml.Decode(string(data), &m)
	return m, err == nil
}

func detectRust(c *dirContext) *Project {
	if !exists(c.abs, "Cargo.toml") {
		return nil
	}
	m, _ := readCargo(c.abs)
	p := &Project{Kind: "Rust"}
	def := strings.Replace(gauntletDefault, "%s", "a Cargo package", 1)
	fmtRun, clippyRun, testRun := "cargo fmt --check", "cargo clippy --all-targets -- -D warnings", "cargo test"
	fmtFix, clippyFix := "cargo fmt", "cargo clippy --all-targets --fix --allow-dirty -- -D warnings"
	if m.Workspace != nil {
		// One cargo command over every member: members depend on each other, so testing them
		// one by one would build the shared ones again and again.
		p.Tool = "workspace"
		def = strings.Replace(gauntletDefault, "%s", "a Cargo workspace", 1)
		fmtRun, clippyRun, testRun = "cargo fmt --all --check", "cargo clippy --workspace --all-targets -- -D warnings", "cargo test --workspace"
		fmtFix, clippyFix = "cargo fmt --all", "cargo clippy --workspace --all-targets --fix --allow-dirty -- -D warnings"
	}
	// Compiling is most of the time of clippy and of the tests, hence their long timeouts.
	defaults := []Gate{
		{Name: "fmt", Comment: "files that rustfmt would reformat", Run: fmtRun, Fix: fmtFix, Timeout: quick},
		{Name: "lint", Comment: "clippy's lints, warnings included", Run: clippyRun, Fix: clippyFix, Timeout: rustTime},
		{Name: "test", Comment: "the tests", Run: testRun, Timeout: rustTime},
	}
	for i, key := range []string{"cargo-fmt", "cargo-clippy", "cargo-test"} {
		if g, ok := c.pick(key); ok {
			p.Gates = append(p.Gates, g)
			continue
		}
		g := defaults[i]
		g.Source, g.Inferred = def, true
		p.Gates = append(p.Gates, g)
	}
	return p
}

// workspaceMembers are the folders directly under root that a root Cargo, Node, Maven or Gradle
// build covers: its own commands check them, so they are no projects of their own.
func workspaceMembers(root string) map[string]bool {
	var patterns []string
	if m, ok := readCargo(root); ok && m.Workspace != nil {
		patterns = append(patterns, m.Workspace.Members...)
	}
	if rootScriptsCoverWorkspace(root) {
		// Only when the root's scripts check the workspace (pnpm -r test); otherwise each
		// member's own scripts are the checks.
		patterns = append(patterns, nodeWorkspaces(root)...)
	}
	patterns = append(patterns, javaModules(root)...)
	out := map[string]bool{}
	for _, pat := range patterns {
		pat = strings.TrimPrefix(path.Clean(pat), "./")
		first, _, _ := strings.Cut(pat, "/")
		if first == "" || strings.ContainsAny(first, "*?[") {
			continue // a bare "*" would be every folder: left to detection
		}
		out[first] = true
	}
	return out
}
