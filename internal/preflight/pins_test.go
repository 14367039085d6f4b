package preflight

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A tool whose installed version differs from the one the project pins is named, with where
// the pin is: a newer golangci-lint reports findings the pinned one does not.
func TestPinnedToolVersions(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".github/workflows/lint.yml", "jobs:\n  lint:\n    steps:\n      - uses: actions/checkout@v4\n"+
		"      - uses: golangci/golangci-lint-action@v6\n        with:\n          version: v1.61.0\n          args: --timeout=5m\n")
	write(".tool-versions", "# asdf\nnodejs 20.11.1\nruff 0.4.2\n")
	write("mise.toml", "[tools]\nshellcheck = \"0.10\"\nyamllint = { version = \"1.35.1\" }\n")
	write(".go-version", "1.22.5\n")
	write("package.json", `{"packageManager": "pnpm@9.1.0+sha512.abc"}`)
	installed := map[string]string{
		"golangci-lint": "golangci-lint has version 1.62.2 built with go1.23.3\n",
		"node":          "v20.11.1\n", // as pinned
		"ruff":          "ruff 0.5.0\n",
		"shellcheck":    "ShellCheck - shell script analysis tool\nversion: 0.10.0\n", // 0.10 pins the series
		"yamllint":      "yamllint 1.35.1\n",
		"go":            "go1.22.7\n",
		"pnpm":          "8.15.0\n",
	}
	env := fakeEnv(slices.Collect(func(yield func(string) bool) {
		for k := range installed {
			if !yield(k) {
				return
			}
		}
	}))
	env.Version = func(_ string, argv ...string) (string, error) { return installed[argv[0]], nil }
	env.Exists = func(string) bool { return true }
	gs := []gates.Gate{check("lint", "golangci-lint run"), check("web", "node x.js"), check("ruff", "ruff check"),
		check("sh", "shellcheck a.sh"), check("yaml", "yamllint ."), check("vet", "go vet ./..."), check("pn", "pnpm run lint")}
	var got []string
	for _, p := range CheckEnv(root, gs, env) {
		got = append(got, p.Gate+": "+p.Message)
	}
	want := []string{
		"lint: golangci-lint 1.62.2 is not the version the project pins (.github/workflows/lint.yml golangci-lint-action version: v1.61.0): its findings may differ from the project's",
		"ruff: ruff 0.5.0 is not the version the project pins (.tool-versions: 0.4.2): its findings may differ from the project's",
		"vet: Go 1.22.7 is not the version the project pins (.go-version: 1.22.5): its findings may differ from the project's",
		"pn: pnpm 8.15.0 is not the version the project pins (package.json packageManager: 9.1.0): its findings may differ from the project's",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q\ngot:\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, g := range got {
		if strings.HasPrefix(g, "web:") || strings.HasPrefix(g, "sh:") || strings.HasPrefix(g, "yaml:") {
			t.Errorf("a tool at its pinned version is named: %q", g)
		}
	}
}
