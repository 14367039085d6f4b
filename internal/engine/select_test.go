package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
)

// Outside git every scoped gate runs; each selected gate says why, each skipped one why not.
func TestSelectGivesEveryGateAReason(t *testing.T) {
	const yml = `version: 1
gates:
  plain:
    run: "true"
  scoped:
    run: "true"
    paths: ["**/*.go"]
  off:
    run: "true"
    enabled: false
  ci:
    run: "true"
    when: ci
`
	dir := t.TempDir()
	cfg, err := config.Parse(filepath.Join(dir, config.FileName), []byte(yml), dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		scope Scope
		want  map[string]string // gate -> reason; a gate that runs is prefixed with "run: "
	}{
		{"outside git", Scope{}, map[string]string{
			"plain":  "run: no paths: always runs",
			"scoped": "run: no change scoping: not inside a git work tree",
			"off":    "disabled (enabled: false)",
			"ci":     "runs only in CI (when: ci)",
		}},
		{"all", Scope{All: true, CI: true}, map[string]string{
			"plain":  "run: no paths: always runs",
			"scoped": "run: --all: paths ignored",
			"off":    "disabled (enabled: false)",
			"ci":     "run: no paths: always runs",
		}},
		{"named", Scope{Names: []string{"scoped"}}, map[string]string{
			"scoped": "run: named on the command line",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Select(context.Background(), cfg, tt.scope)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, g := range sel.Run {
				got[g.Name] = "run: " + sel.Reasons[g.Name]
			}
			for name, why := range sel.Skipped {
				got[name] = why
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d gates %v, want %d", len(got), got, len(tt.want))
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
		})
	}
}
