package config

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestIntegrityKey(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		hook    map[string]gates.IntegrityLevel // rule -> level in the stop hook
		run     map[string]gates.IntegrityLevel
		wantErr string
	}{
		{name: "absent: block in the hook, warn in run", yaml: "",
			hook: map[string]gates.IntegrityLevel{"test-removed": "block"}, run: map[string]gates.IntegrityLevel{"test-removed": "warn"}},
		{name: "scalar", yaml: "integrity: off\n",
			hook: map[string]gates.IntegrityLevel{"test-removed": "off"}, run: map[string]gates.IntegrityLevel{"test-removed": "off"}},
		{name: "per rule", yaml: "integrity:\n  rules:\n    suppression-added: warn\n",
			hook: map[string]gates.IntegrityLevel{"suppression-added": "warn", "test-removed": "block"},
			run:  map[string]gates.IntegrityLevel{"suppression-added": "warn", "test-removed": "warn"}},
		{name: "default and rules", yaml: "integrity:\n  default: block\n  rules: {test-skipped: off}\n",
			hook: map[string]gates.IntegrityLevel{"test-skipped": "off", "gate-relaxed": "block"},
			run:  map[string]gates.IntegrityLevel{"test-skipped": "off", "gate-relaxed": "block"}},
		{name: "bad level", yaml: "integrity: warning\n", wantErr: `.gauntlet.yml:2:12: "integrity" must be one of block, warn, off, got "warning" (did you mean "warn"?)`},
		{name: "unknown rule", yaml: "integrity:\n  rules:\n    test-skiped: warn\n", wantErr: `.gauntlet.yml:4:5: unknown integrity rule "test-skiped" (did you mean "test-skipped"?)`},
		{name: "unknown key", yaml: "integrity:\n  defaults: warn\n", wantErr: `.gauntlet.yml:3:3: unknown key "defaults" in integrity (did you mean "default"?)`},
		{name: "bad rule level", yaml: "integrity:\n  rules: {test-removed: true}\n", wantErr: `.gauntlet.yml:3:25: "test-removed" in integrity.rules must be one of block, warn, off, got`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{".git/": "", ".gauntlet.yml": "version: 1\n" + tt.yaml + "gates: {vet: {run: go vet}}\n"})
			c, err := Load(Options{Dir: root})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for rule, want := range tt.hook {
				if got := c.Integrity.Level(rule, true); got != want {
					t.Errorf("hook %s = %s, want %s", rule, got, want)
				}
			}
			for rule, want := range tt.run {
				if got := c.Integrity.Level(rule, false); got != want {
					t.Errorf("run %s = %s, want %s", rule, got, want)
				}
			}
		})
	}
}
