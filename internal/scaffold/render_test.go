package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
)

// parseRendered loads Render's output the way gauntlet would.
func parseRendered(t *testing.T, root string, projects []Project) *config.Config {
	t.Helper()
	data := Render(projects)
	cfg, err := config.Parse(filepath.Join(root, config.FileName), data, root)
	if err != nil {
		t.Fatalf("rendered config does not load: %v\n%s", err, data)
	}
	return cfg
}

func TestRenderedConfigLoadsWithEveryGate(t *testing.T) {
	fixtures := map[string]map[string]string{
		"go":     {"go.mod": "module x\n"},
		"node":   {"package.json": `{"scripts": {"lint": "eslint .", "test": "jest", "build": "tsc"}}`, "bun.lock": ""},
		"python": {"pyproject.toml": "[tool.ruff]\n[tool.mypy]\n", "uv.lock": ""},
		"rust":   {"Cargo.toml": ""},
		"make":   {"Makefile": "test:\nlint:\ncheck:\n"},
		"mixed": {
			"api/go.mod": "module api\n", "web/package.json": `{"scripts": {"lint": "eslint ."}}`,
			"ml/requirements.txt": "", "Makefile": "check:\n", "my app/Cargo.toml": "", "it's/go.mod": "",
		},
	}
	for name, files := range fixtures {
		t.Run(name, func(t *testing.T) {
			root := writeTree(t, files)
			projects, err := Detect(root)
			if err != nil {
				t.Fatal(err)
			}
			cfg := parseRendered(t, root, projects)
			want := Layout(projects)
			if len(cfg.Gates) != len(want) || len(want) == 0 {
				t.Fatalf("config has %d gates, want %d (and some)", len(cfg.Gates), len(want))
			}
			for i, g := range cfg.Gates {
				w := want[i]
				if g.Name != w.Name || g.Run != w.Run || g.Dir != w.Dir || !slices.Equal(g.Paths, w.Paths) || g.Timeout != w.Timeout {
					t.Errorf("gate %d reads back as %+v, want %+v", i, g, w)
				}
				if g.Timeout == 0 {
					t.Errorf("gate %s has no timeout", g.Name)
				}
				if g.Dir != "" {
					if info, err := os.Stat(filepath.Join(root, g.Dir)); err != nil || !info.IsDir() {
						t.Errorf("gate %s runs in %q, which is not a folder of the repository", g.Name, g.Dir)
					}
				}
			}
			if cfg.Timeout != config.DefaultTimeout {
				t.Errorf("default timeout = %v, want %v", cfg.Timeout, config.DefaultTimeout)
			}
		})
	}
}

func TestRenderCommentsEveryGate(t *testing.T) {
	projects := []Project{{Dir: "api", Kind: "Go", Gates: []Gate{
		{Name: "vet", Comment: "what vet says", Run: "go vet ./...", Timeout: time.Minute, Hint: "Fix it."},
	}}}
	out := string(Render(projects))
	for _, want := range []string{
		"gauntlet run", "gauntlet validate", "# Started by `gauntlet init` for: Go (api).",
		"  # Go (api): what vet says.\n  api-vet:\n",
		"    hint: 'In api/: fix it.'\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered config lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "$schema") {
		t.Errorf("rendered config names a schema location:\n%s", out)
	}
}

func TestRenderWithoutProjectsIsAValidSkeleton(t *testing.T) {
	root := t.TempDir()
	cfg := parseRendered(t, root, nil)
	if len(cfg.Gates) != 0 {
		t.Errorf("skeleton has gates %v", cfg.Gates)
	}
	out := string(Render(nil))
	if !strings.Contains(out, "version: 1") || !strings.Contains(out, "#   test:\n#     run: make test") {
		t.Errorf("skeleton lacks the version or the commented example:\n%s", out)
	}
}

func TestRenderKeepsNotesInsideComments(t *testing.T) {
	projects := []Project{{Kind: "Node", Notes: []string{"broken:\nfoo: bar\r\n"}}}
	cfg := parseRendered(t, t.TempDir(), projects)
	if len(cfg.Gates) != 0 {
		t.Errorf("a note became config: %+v", cfg)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Minute: "10m", 90 * time.Second: "90s", 1500 * time.Millisecond: "1.5s",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
