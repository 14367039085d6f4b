package census

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func posixQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|()<>*?[]{}#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// The runners a gate's command names, what each needs to give its census, and the command it
// becomes: the same check, the same output for the user save what each case says.
func TestDetect(t *testing.T) {
	tests := []struct {
		shell   string   // a run: string
		argv    []string // or an argv
		want    []Request
		applied string // the command with the requests in place, {census} as /tmp/c0, /tmp/c1
	}{
		{
			shell:   "go test ./...",
			want:    []Request{{Runner: "go test", Format: FormatGo, Args: []string{"-json"}, Display: DisplayGoEvents}},
			applied: "go test -json ./...",
		},
		{
			shell:   "CGO_ENABLED=0 go test -race -count=1 ./... && go vet ./...",
			want:    []Request{{Runner: "go test", Format: FormatGo, Args: []string{"-json"}, Display: DisplayGoEvents}},
			applied: "CGO_ENABLED=0 go test -json -race -count=1 ./... && go vet ./...",
		},
		{
			argv:    []string{"go", "test", "-json", "./..."},
			want:    []Request{{Runner: "go test", Format: FormatGo}},
			applied: "go test -json ./...",
		},
		{
			shell:   "gotestsum --format testname -- ./...",
			want:    []Request{{Runner: "gotestsum", Format: FormatGo, Args: []string{"--jsonfile={census}"}, File: FilePlaceholder}},
			applied: "gotestsum --jsonfile=/tmp/c0 --format testname -- ./...",
		},
		{
			shell:   "gotestsum --jsonfile out/tests.json -- ./...",
			want:    []Request{{Runner: "gotestsum", Format: FormatGo, File: "out/tests.json"}},
			applied: "gotestsum --jsonfile out/tests.json -- ./...",
		},
		{
			shell:   "pytest -q tests/",
			want:    []Request{{Runner: "pytest", Format: FormatJUnit, Args: []string{"--junitxml={census}"}, File: FilePlaceholder, Display: DisplayExtraLine}},
			applied: "pytest --junitxml=/tmp/c0 -q tests/",
		},
		{
			shell:   "uv run python -m pytest -x",
			want:    []Request{{Runner: "pytest", Format: FormatJUnit, Args: []string{"--junitxml={census}"}, File: FilePlaceholder, Display: DisplayExtraLine}},
			applied: "uv run python -m pytest --junitxml=/tmp/c0 -x",
		},
		{
			argv:    []string{"python3", "-m", "pytest", "--junit-xml", "reports/junit.xml"},
			want:    []Request{{Runner: "pytest", Format: FormatJUnit, File: "reports/junit.xml"}},
			applied: "python3 -m pytest --junit-xml reports/junit.xml",
		},
		{
			shell: "node --test",
			want: []Request{{Runner: "node --test", Format: FormatJUnit, File: FilePlaceholder, Display: DisplayNodeTAP,
				Args: []string{"--test-reporter=tap", "--test-reporter-destination=stdout", "--test-reporter=junit", "--test-reporter-destination={census}"}}},
			applied: "node --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=/tmp/c0 --test",
		},
		{
			shell: "node --test --test-reporter=spec test/",
			want: []Request{{Runner: "node --test", Format: FormatJUnit, File: FilePlaceholder,
				Args: []string{"--test-reporter=junit", "--test-reporter-destination={census}", "--test-reporter-destination=stdout"}}},
			applied: "node --test-reporter=junit --test-reporter-destination=/tmp/c0 --test-reporter-destination=stdout --test --test-reporter=spec test/",
		},
		{
			shell:   "node --test --test-reporter=junit --test-reporter-destination=junit.xml",
			want:    []Request{{Runner: "node --test", Format: FormatJUnit, File: "junit.xml"}},
			applied: "node --test --test-reporter=junit --test-reporter-destination=junit.xml",
		},
		{
			shell: "npx vitest run",
			want: []Request{{Runner: "vitest", Format: FormatJUnit, File: FilePlaceholder, Display: DisplayExtraLine,
				Args: []string{"--reporter=default", "--reporter=junit", "--outputFile.junit={census}"}}},
			applied: "npx vitest run --reporter=default --reporter=junit --outputFile.junit=/tmp/c0",
		},
		{
			shell: "pnpm exec vitest --run --reporter=verbose",
			want: []Request{{Runner: "vitest", Format: FormatJUnit, File: FilePlaceholder, Display: DisplayExtraLine,
				Args: []string{"--reporter=junit", "--outputFile.junit={census}"}}},
			applied: "pnpm exec vitest --reporter=junit --outputFile.junit=/tmp/c0 --run --reporter=verbose",
		},
		{
			shell:   "npx jest --ci",
			want:    []Request{{Runner: "jest", Format: FormatJest, Args: []string{"--json", "--outputFile={census}"}, File: FilePlaceholder, Display: DisplayExtraLine}},
			applied: "npx jest --json --outputFile=/tmp/c0 --ci",
		},
		{
			shell:   "jest --json --outputFile=report.json",
			want:    []Request{{Runner: "jest", Format: FormatJest, File: "report.json"}},
			applied: "jest --json --outputFile=report.json",
		},
		{
			shell:   "jest --json",
			want:    []Request{{Runner: "jest", Format: FormatJest, Problem: "jest --json without --outputFile writes its report into the gate's output, mixed with the rest"}},
			applied: "jest --json",
		},
		{
			shell:   "cargo test --workspace",
			want:    []Request{{Runner: "cargo test", Format: FormatLibtest}},
			applied: "cargo test --workspace",
		},
		{
			shell:   "cargo test -q",
			want:    []Request{{Runner: "cargo test", Format: FormatLibtest, Problem: "cargo test -q prints terse output, which names only the failing tests"}},
			applied: "cargo test -q",
		},
		{
			shell:   "cargo nextest run",
			want:    []Request{{Runner: "cargo nextest", Format: FormatJUnit, Problem: "nextest writes JUnit only where a profile of .config/nextest.toml says ([profile.NAME.junit] path); name that file in tests:"}},
			applied: "cargo nextest run",
		},
		{
			shell: "go test ./... && cd web && npx vitest run",
			want: []Request{
				{Runner: "go test", Format: FormatGo, Args: []string{"-json"}, Display: DisplayGoEvents},
				{Runner: "vitest", Format: FormatJUnit, File: FilePlaceholder, Display: DisplayExtraLine,
					Args: []string{"--reporter=default", "--reporter=junit", "--outputFile.junit={census}"}},
			},
			applied: "go test -json ./... && cd web && npx vitest run --reporter=default --reporter=junit --outputFile.junit=/tmp/c1",
		},
		{shell: "npm test", applied: "npm test"},
		{shell: "make check", applied: "make check"},
		{shell: `echo "go test ./..."`, applied: `echo "go test ./..."`},
		{shell: "vitest.config.ts", applied: "vitest.config.ts"},
		{
			shell:   `pytest -k 'not slow and (fast or db)' "tests dir"`,
			want:    []Request{{Runner: "pytest", Format: FormatJUnit, Args: []string{"--junitxml={census}"}, File: FilePlaceholder, Display: DisplayExtraLine}},
			applied: `pytest --junitxml=/tmp/c0 -k 'not slow and (fast or db)' "tests dir"`,
		},
		{
			argv:    []string{"pytest", "tests dir"},
			want:    []Request{{Runner: "pytest", Format: FormatJUnit, Args: []string{"--junitxml={census}"}, File: FilePlaceholder, Display: DisplayExtraLine}},
			applied: `pytest --junitxml=/tmp/c0 'tests dir'`,
		},
	}
	for _, tt := range tests {
		name := tt.shell
		if tt.argv != nil {
			name = fmt.Sprintf("%q", tt.argv)
		}
		t.Run(name, func(t *testing.T) {
			c := Command{Shell: tt.shell, Argv: tt.argv}
			got := Detect(c)
			if g, w := showRequests(got), showRequests(tt.want); g != w {
				t.Errorf("requests:\n%s\nwant:\n%s", g, w)
			}
			applied := Apply(c, got, func(i int) string { return fmt.Sprintf("/tmp/c%d", i) }, posixQuote)
			text := applied.Shell
			if tt.argv != nil {
				var q []string
				for _, a := range applied.Argv {
					q = append(q, posixQuote(a))
				}
				text = strings.Join(q, " ")
			}
			if text != tt.applied {
				t.Errorf("applied:\n%s\nwant:\n%s", text, tt.applied)
			}
			// Applied once is enough: the command now asks for its machine output itself.
			for k, r := range Detect(applied) {
				if len(r.Args) > 0 || (got[k].File == FilePlaceholder && r.File != fmt.Sprintf("/tmp/c%d", k)) {
					t.Errorf("detected again in %q: %s", text, showRequests([]Request{r}))
				}
			}
			if tt.argv != nil && !slices.Equal(Apply(c, nil, nil, nil).Argv, tt.argv) {
				t.Error("Apply with no requests changed the command")
			}
		})
	}
}

func showRequests(rs []Request) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %s: format=%s args=%q file=%q display=%q problem=%q\n", r.Runner, r.Format, r.Args, r.File, r.Display, r.Problem)
	}
	return b.String()
}

func TestReadDispatches(t *testing.T) {
	for _, f := range []Format{FormatGo, FormatJUnit, FormatTAP, FormatLibtest, FormatJest} {
		if got := Read(f, strings.NewReader(""), Options{}); got.Runner != string(f) || got.Complete {
			t.Errorf("%s: %+v", f, got)
		}
	}
	if got := Read("nunit", strings.NewReader(""), Options{}); got.Complete || len(got.Notes) == 0 {
		t.Errorf("an unknown format: %+v", got)
	}
}
