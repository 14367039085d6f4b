package baseconfig

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

func parse(t *testing.T, yml string) *config.Config {
	t.Helper()
	c, err := config.Parse("/p/.gauntlet.yml", []byte(yml), "/p")
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, yml)
	}
	return c
}

const baseYML = `version: 1
gates:
  test:
    run: go test ./...
  lint:
    run: golangci-lint run
    severity: warn
`

func TestJudgeKeepsTheBasesGates(t *testing.T) {
	cases := []struct {
		name     string
		head     string
		want     []string // gate name: command, in order
		findings []string // message fragments, each with its level
	}{
		{name: "unchanged", head: baseYML,
			want: []string{"test: go test ./...", "lint: golangci-lint run"}},
		{name: "a gate added runs too, with no finding", head: baseYML + "  vet:\n    run: go vet ./...\n",
			want: []string{"test: go test ./...", "lint: golangci-lint run", "vet: go vet ./..."}},
		{name: "a gate removed runs as the base has it",
			head:     "version: 1\ngates:\n  lint:\n    run: golangci-lint run\n    severity: warn\n",
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`block: gate "test" removed`}},
		{name: "a gate renamed runs under its base name, once",
			head:     "version: 1\ngates:\n  tests:\n    run: go test ./...\n  lint:\n    run: golangci-lint run\n    severity: warn\n",
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`block: gate "test" renamed to "tests"`}},
		{name: "a command narrowed runs as the base has it",
			head:     strings.Replace(baseYML, "go test ./...", "go test -run TestZero ./...", 1),
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`block: gate "test" altered (command)`}},
		{name: "a top-level env reaches every gate: each is altered",
			head:     strings.Replace(baseYML, "gates:", "env:\n  GOFLAGS: -run=^$\ngates:", 1),
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`block: gate "test" altered (env)`, `block: gate "lint" altered (env)`}},
		{name: "stricter only is reported, not blocking",
			head:     strings.Replace(baseYML, "    severity: warn\n", "", 1),
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`warn: gate "lint" altered (severity)`}},
		{name: "a stop_hook key altered keeps the base's value",
			head:     strings.Replace(baseYML, "gates:", "stop_hook:\n  timeout: 1ms\ngates:", 1),
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`block: stop_hook.timeout altered`}},
		{name: "pre-existing failures made to block is stricter",
			head:     strings.Replace(baseYML, "gates:", "stop_hook:\n  pre_existing: block\ngates:", 1),
			want:     []string{"test: go test ./...", "lint: golangci-lint run"},
			findings: []string{`warn: stop_hook.pre_existing altered`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, head := parse(t, baseYML), parse(t, tc.head)
			got := Judge(base, head, head, ".gauntlet.yml")
			var names []string
			for _, g := range got.Config.Gates {
				names = append(names, g.Name+": "+g.Command())
			}
			if strings.Join(names, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("gates:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(tc.want, "\n"))
			}
			if len(got.Findings) != len(tc.findings) {
				t.Fatalf("findings: %+v, want %d", got.Findings, len(tc.findings))
			}
			for i, want := range tc.findings {
				f := got.Findings[i]
				if f.Rule != gates.RuleGateAltered || !strings.Contains(string(f.Level)+": "+f.Message, want) {
					t.Errorf("finding %d: %s %s: %s, want %q", i, f.Rule, f.Level, f.Message, want)
				}
			}
			if base.StopHook.Timeout != got.Config.StopHook.Timeout {
				t.Errorf("stop_hook.timeout %v, want the base's %v", got.Config.StopHook.Timeout, base.StopHook.Timeout)
			}
		})
	}
}

func TestJudgeWithoutBaseIsTheHeads(t *testing.T) {
	head := parse(t, baseYML)
	if got := Judge(nil, head, head, ".gauntlet.yml"); got.Config != head || len(got.Findings) != 0 {
		t.Errorf("a project adopting gauntlet is judged by its own config: %+v", got)
	}
}

func TestDigestFollowsTheDefinition(t *testing.T) {
	a := parse(t, baseYML).Gates[0]
	renamed := a
	renamed.Name, renamed.Hint = "tests", "advice"
	if Digest(a) != Digest(renamed) {
		t.Error("a renamed gate with the same definition has another digest")
	}
	narrowed := a
	narrowed.Run = "go test -run TestZero ./..."
	if Digest(a) == Digest(narrowed) {
		t.Error("an altered gate has the same digest")
	}
	// The census a gate's tests are compared by comes from its reports: pointing tests: elsewhere
	// alters what judges it.
	elsewhere := a
	elsewhere.Tests = "old/*.xml"
	if Digest(a) == Digest(elsewhere) {
		t.Error("a gate whose tests: changed has the same digest")
	}
	if keys, _ := altered(a, elsewhere); !slices.Equal(keys, []string{"tests"}) {
		t.Errorf("altered keys = %q, want [tests]", keys)
	}
}

// The base's config handed over as the change's main file itself judges as the same config
// parsed again: the same gates, settings and findings (none).
func TestJudgeWithTheMainFileItself(t *testing.T) {
	yml := baseYML + "  vet:\n    run: go vet ./...\n    needs: [test]\n    env: {A: b}\n    paths: [\"**/*.go\"]\n" +
		"stop_hook:\n  max_attempts: 5\nintegrity: warn\n"
	main := parse(t, yml)
	head := parse(t, yml)
	head.Gates[1].Enabled = false // as a local override stop_hook.local_overrides honours would
	same := Judge(main, head, main, ".gauntlet.yml")
	apart := Judge(parse(t, yml), head, main, ".gauntlet.yml")
	if !reflect.DeepEqual(same, apart) {
		t.Errorf("judged with the main file itself:\n%+v\nwith the same file parsed again:\n%+v", same, apart)
	}
	if len(same.Findings) != 0 || same.Config.Gates[1].Enabled {
		t.Errorf("findings %v, lint enabled %v; want none, and the change's lint", same.Findings, same.Config.Gates[1].Enabled)
	}
}

// A project whose failures all block (pre_existing: block) is not made lenient by the change: the
// base's value stays, and the alteration blocks.
func TestJudgeKeepsPreExistingBlock(t *testing.T) {
	blockYML := strings.Replace(baseYML, "gates:", "stop_hook:\n  pre_existing: block\ngates:", 1)
	base, head := parse(t, blockYML), parse(t, baseYML)
	got := Judge(base, head, head, ".gauntlet.yml")
	if got.Config.StopHook.PreExisting != config.PreExistingBlock {
		t.Errorf("pre_existing %q, want the base's block", got.Config.StopHook.PreExisting)
	}
	if len(got.Findings) != 1 || got.Findings[0].Level != gates.IntegrityBlock || !strings.Contains(got.Findings[0].Message, "stop_hook.pre_existing altered") {
		t.Errorf("findings %+v", got.Findings)
	}
}

// The gates the change adds run after the base's (AfterBase); the base's own never wait.
func TestJudgeAddedGatesRunAfterTheBase(t *testing.T) {
	base := parse(t, baseYML)
	head := parse(t, baseYML+"  vet:\n    run: go vet ./...\n")
	got := Judge(base, head, head, ".gauntlet.yml").Config
	for _, g := range got.Gates {
		if g.AfterBase != (g.Name == "vet") {
			t.Errorf("%s: AfterBase = %v", g.Name, g.AfterBase)
		}
	}
}
