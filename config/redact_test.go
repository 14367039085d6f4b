package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRedactSection(t *testing.T) {
	const main = "version: 1\nredact:\n  names: [DATABASE_URL]\n  exempt: [SESSION_TOKEN]\nenv:\n  TOP_TOKEN: top-secret-value\ngates:\n  a:\n    run: x\n  b:\n    run: x\n    env:\n      GATE_PASSWORD: gate-secret-value\n"
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gauntlet.yml":       main,
		".gauntlet.local.yml": "redact:\n  exempt: [OTHER_TOKEN]\ngates:\n  a:\n    env:\n      LOCAL_KEY: local-secret-value\n",
	})
	c, err := Load(Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	// The local file replaces exempt and keeps names, key by key like stop_hook.
	if !slices.Equal(c.Redact.Names, []string{"DATABASE_URL"}) || !slices.Equal(c.Redact.Exempt, []string{"OTHER_TOKEN"}) {
		t.Errorf("Redact = %+v", c.Redact)
	}
	r := c.Redactor([]string{"DATABASE_URL=postgres://db/x", "OTHER_TOKEN=shown-token-value", "PROC_TOKEN=process-secret"})
	got := r.Redact("top-secret-value gate-secret-value local-secret-value postgres://db/x process-secret shown-token-value")
	if want := strings.Repeat("[REDACTED] ", 5) + "shown-token-value"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

func TestRedactSectionProblems(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"redact:\n  names: [1BAD]\n", `item 1 of "names" in redact must be an environment variable name`},
		{"redact:\n  exempt: [has-dash]\n", `item 1 of "exempt" in redact must be an environment variable name`},
		{"redact:\n  names: [A_TOKEN]\n  exempt: [A_TOKEN]\n", `"A_TOKEN" is in both "names" and "exempt" in redact`},
		{"redact:\n  nmes: [X]\n", `unknown key "nmes" in redact`},
		{"redact: [X]\n", `"redact" must be a mapping`},
	} {
		_, err := Parse(".gauntlet.yml", []byte("version: 1\n"+tc.body), t.TempDir())
		var errs *Errors
		if !errors.As(err, &errs) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.body, err, tc.want)
		}
	}
}
