package scaffold

import (
	"strings"
	"testing"
)

// nextest writes JUnit only where a profile of .config/nextest.toml says, and gauntlet cannot
// ask it for more: init names that report in the test gate's tests:. Every other test gate is
// left to gauntlet's own asking, and a nextest without a junit path gets nothing.
func TestInitNamesTheReportNextestIsConfiguredToWrite(t *testing.T) {
	const ci = ".github/workflows/ci.yml"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"the profile the command names", map[string]string{
			"Cargo.toml":           "[package]\n",
			ci:                     "jobs:\n  t:\n    steps:\n      - run: cargo nextest run --profile ci --workspace\n",
			".config/nextest.toml": "[profile.ci.junit]\npath = \"junit.xml\"\n",
		}, "target/nextest/ci/junit.xml"},
		{"the default profile's junit, inherited, in a store of its own", map[string]string{
			"Cargo.toml":           "[package]\n",
			ci:                     "jobs:\n  t:\n    steps:\n      - run: cargo nextest run -P ci\n",
			".config/nextest.toml": "[store]\ndir = \"out/nextest\"\n[profile.default.junit]\npath = \"reports/junit.xml\"\n[profile.ci]\nretries = 2\n",
		}, "out/nextest/ci/reports/junit.xml"},
		{"no junit configured", map[string]string{
			"Cargo.toml": "[package]\n",
			ci:           "jobs:\n  t:\n    steps:\n      - run: cargo nextest run\n",
		}, ""},
		{"a runner gauntlet asks itself", map[string]string{
			"Cargo.toml":           "[package]\n",
			".config/nextest.toml": "[profile.default.junit]\npath = \"junit.xml\"\n",
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			projects, err := Detect(root)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, p := range projects {
				for _, g := range p.Gates {
					if g.Name == "test" {
						got = g.Tests
					}
				}
			}
			if got != tt.want {
				t.Errorf("tests = %q, want %q", got, tt.want)
			}
			cfg := parseRendered(t, root, projects)
			for _, g := range cfg.Gates {
				if g.Name == "test" && g.Tests != tt.want {
					t.Errorf("the rendered config says tests: %q, want %q", g.Tests, tt.want)
				}
			}
			if rendered := string(Render(projects)); tt.want != "" && !strings.Contains(rendered, "nextest.toml") {
				t.Errorf("the rendered tests: says nothing of where it comes from:\n%s", rendered)
			}
		})
	}
}
