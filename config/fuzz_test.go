package config

import (
	"errors"
	"os"
	"slices"
	"testing"
)

// Any pair of main and local files loads into a valid config or fails with *Errors listing the
// problems; nothing panics, and nothing in a loaded config breaks what the loader promises.
func FuzzLoadWithLocal(f *testing.F) {
	example, err := os.ReadFile(examplePath)
	if err != nil {
		f.Fatal(err)
	}
	seeds := [][2]string{
		{string(example), ""},
		{string(example), "jobs: 1\nstop_hook:\n  max_attempts: 5\ngates:\n  vet:\n    enabled: false\n  new:\n    argv: [x]\nredact:\n  names: [DATABASE_URL]\n"},
		{"version: 1\ngates:\n  a:\n    run: x\n", "gates:\n  a:\n    argv: [y]\n"},
		{"version: 1\ngates:\n  a:\n    run: x\n", "gates:\n  a:\n    run: y\n    argv: [z]\n"},
		{"version: 1\nenv:\n  A: &v 1\n  B: *v\ngates:\n  a: &g\n    run: x\n  b: *g\n", "version: 2\n"},
		{"version: 1\nx: &a [*a]\n", ""},
		{"a: &a [a, a]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n", "{"},
		{"version: 1\ngates:\n  a:\n    kind: review\n    cli: claude\n    prompt: p\n    prompt_file: f\n", "\t"},
		{"version: 1\ntimeout: 0s\ngates: []\n", "gates:\n  A!: {}\n"},
		{"version: 1\nredact:\n  names: [A_B]\n  exempt: [A_B, 1x]\n", "redact: null\n"},
		{"", ""}, {"version: 1\n", "version: 1\n"}, {"\xff\xfe", "\x00"},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, main, local []byte) {
		c, err := assemble(root, source{path: root + "/" + FileName, data: main}, &source{path: root + "/" + LocalFileName, data: local})
		if err != nil {
			var errs *Errors
			if !errors.As(err, &errs) || len(errs.Problems) == 0 || c != nil {
				t.Fatalf("load failed with %T %v and config %v; want *Errors with problems and no config", err, err, c)
			}
			return
		}
		if c == nil || c.Root != root || c.Digest == "" || c.KeepRuns < 0 || c.Jobs < 1 || c.Timeout <= 0 {
			t.Fatalf("loaded config breaks its invariants: %+v", c)
		}
		names := map[string]bool{}
		for _, g := range c.Gates {
			if !gateNamePattern().MatchString(g.Name) || names[g.Name] {
				t.Fatalf("gate name %q is invalid or repeated", g.Name)
			}
			names[g.Name] = true
			if !slices.Contains(gateKinds, string(g.Kind)) || g.Timeout <= 0 {
				t.Fatalf("gate %q: kind %q, timeout %s", g.Name, g.Kind, g.Timeout)
			}
			if g.Kind == "check" && (g.Run == "") == (len(g.Argv) == 0) {
				t.Fatalf("check gate %q has run %q and argv %q", g.Name, g.Run, g.Argv)
			}
		}
		for _, n := range slices.Concat(c.Redact.Names, c.Redact.Exempt) {
			if !envNamePattern().MatchString(n) {
				t.Fatalf("redact holds the invalid name %q", n)
			}
		}
		if c.StopHook.MaxAttempts < 1 || c.StopHook.Timeout <= 0 || c.StopHook.LockWait <= 0 {
			t.Fatalf("stop_hook breaks its invariants: %+v", c.StopHook)
		}
	})
}
