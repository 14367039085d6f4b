package census

import (
	"slices"
	"strings"
	"testing"
)

// A runner that a package script or a Makefile recipe runs is asked for its census from outside
// the project's files: an environment variable it reads, or the arguments npm passes on to the
// script's last command. Where neither reaches it, the reason says so.
func TestViaScript(t *testing.T) {
	tests := []struct {
		script   string // the script's body
		trailing PassOn // how the caller can pass arguments on to its last command
		env      []string
		args     []string
		why      string // a part of the reason nothing can be asked; "" when something is
	}{
		{script: "node --test", env: []string{"NODE_OPTIONS=--test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={census}"}},
		{script: "node --test test/", trailing: PassAfterSeparator, env: []string{"NODE_OPTIONS=--test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={census}"}},
		{script: "node --test --test-reporter=spec", why: "names its own reporter"},
		{script: "pytest -q", env: []string{"PYTEST_ADDOPTS=--junitxml={census}"}},
		{script: "python -m pytest tests/", env: []string{"PYTEST_ADDOPTS=--junitxml={census}"}},
		{script: "pytest --junitxml=out.xml", why: "writes its own report"},
		{script: "vitest run", trailing: PassAfterSeparator, args: []string{"--reporter=default", "--reporter=junit", "--outputFile.junit={census}"}},
		{script: "vitest run", why: "reads its reporters only from its command line"},
		{script: "jest --ci", trailing: PassAfterSeparator, args: []string{"--json", "--outputFile={census}"}},
		{script: "jest", why: "reads its reporters only from its command line"},
		{script: "cargo test", why: "no environment"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			reqs := Detect(Command{Shell: tt.script})
			if len(reqs) != 1 {
				t.Fatalf("Detect(%q) = %v, want one request", tt.script, reqs)
			}
			got, why := ViaScript(reqs[0], tt.trailing)
			if tt.why != "" {
				if !strings.Contains(why, tt.why) {
					t.Fatalf("ViaScript why = %q, want it to say %q", why, tt.why)
				}
				return
			}
			if why != "" {
				t.Fatalf("ViaScript refused: %s", why)
			}
			if !slices.Equal(got.Env, tt.env) || !slices.Equal(got.Args, tt.args) {
				t.Fatalf("ViaScript = env %q args %q, want env %q args %q", got.Env, got.Args, tt.env, tt.args)
			}
			if len(got.Args) > 0 != (got.Trailing == tt.trailing && tt.trailing != PassNone) {
				t.Fatalf("Trailing = %v with args %q", got.Trailing, got.Args)
			}
		})
	}
}

// Trailing arguments go after the whole command, behind one "--" that npm reads as the end of
// its own options, and never twice.
func TestApplyTrailing(t *testing.T) {
	req := Request{Runner: "vitest", Trailing: PassAfterSeparator, Args: []string{"--outputFile.junit={census}"}}
	file := func(int) string { return "/tmp/a b" }
	if got := Apply(Command{Shell: "npm test"}, []Request{req}, file, posixQuote).Shell; got != "npm test -- '--outputFile.junit=/tmp/a b'" {
		t.Fatalf("shell: %q", got)
	}
	if got := Apply(Command{Shell: "npm run unit -- --silent"}, []Request{req}, file, posixQuote).Shell; got != "npm run unit -- --silent '--outputFile.junit=/tmp/a b'" {
		t.Fatalf("shell with --: %q", got)
	}
	if got := Apply(Command{Argv: []string{"npm", "test"}}, []Request{req}, file, posixQuote).Argv; !slices.Equal(got, []string{"npm", "test", "--", "--outputFile.junit=/tmp/a b"}) {
		t.Fatalf("argv: %q", got)
	}
	// pnpm passes a "--" on to the script, where vitest would read it as the end of its options:
	// its arguments go as they are.
	req.Trailing = PassAsIs
	if got := Apply(Command{Shell: "pnpm test"}, []Request{req}, file, posixQuote).Shell; got != "pnpm test '--outputFile.junit=/tmp/a b'" {
		t.Fatalf("pnpm shell: %q", got)
	}
	if got := Apply(Command{Argv: []string{"yarn", "run", "unit"}}, []Request{req}, file, posixQuote).Argv; !slices.Equal(got, []string{"yarn", "run", "unit", "--outputFile.junit=/tmp/a b"}) {
		t.Fatalf("yarn argv: %q", got)
	}
}

// A value put in NODE_OPTIONS or PYTEST_ADDOPTS is one word to the runner that splits it, even
// with a space in the run's directory.
func TestEnvWord(t *testing.T) {
	if got := EnvWord("--x=/tmp/a"); got != "--x=/tmp/a" {
		t.Fatalf("plain: %q", got)
	}
	if got := EnvWord(`--x=/tmp/a b"c`); got != `"--x=/tmp/a b\"c"` {
		t.Fatalf("quoted: %q", got)
	}
}
