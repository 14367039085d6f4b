package config

import (
	"slices"
	"strings"
	"testing"
)

func TestFormatAndNewOnly(t *testing.T) {
	c := mustParse(t, `
version: 1
gates:
  named: {run: x, format: eslint, new_only: true}
  efm: {run: x, format: ["%f:%l:%c: %m", "%-G%.%#"]}
  one: {run: x, format: "%f:%l: %m"}
  off: {run: x, format: none}
  detected: {run: go test ./...}
`)
	want := map[string][]string{"named": {"eslint"}, "efm": {"%f:%l:%c: %m", "%-G%.%#"}, "one": {"%f:%l: %m"}, "off": {"none"}, "detected": nil}
	for _, g := range c.Gates {
		if !slices.Equal(g.Format, want[g.Name]) {
			t.Errorf("gate %s: format %q, want %q", g.Name, g.Format, want[g.Name])
		}
		if g.NewOnly != (g.Name == "named") {
			t.Errorf("gate %s: new_only %v", g.Name, g.NewOnly)
		}
	}
}

func TestFormatProblems(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"version: 1\ngates:\n  a: {run: x, format: eslnt}\n", `.gauntlet.yml:3:23: "format" in gate "a": unknown format "eslnt"`},
		{"version: 1\ngates:\n  a: {run: x, format: \"%f:%l:%[\"}\n", `.gauntlet.yml:3:23: "format" in gate "a": errorformat "%f:%l:%["`},
		{"version: 1\ngates:\n  a: {run: x, format: 3}\n", `.gauntlet.yml:3:23: "format" in gate "a" must be a parser name`},
		{"version: 1\ngates:\n  a: {run: x, format: []}\n", `.gauntlet.yml:3:23: "format" in gate "a" must be a parser name`},
		{"version: 1\ngates:\n  a: {kind: todos, new_only: true}\n", `"new_only" is only for check gates`},
	}
	for _, tt := range tests {
		_, err := Parse(".gauntlet.yml", []byte(tt.yaml), "")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tt.yaml, err, tt.want)
		}
	}
}
