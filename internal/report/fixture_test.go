package report

import (
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

var fixtureStart = time.Date(2026, 11, 21, 10, 30, 0, 0, time.FixedZone("CET", 3600))

// fixtureResults covers every status, with output that tries to break each format.
func fixtureResults() []gates.Result {
	log := func(name string) string { return ".gauntlet/logs/20261121T093000Z-4f2a/" + name + ".log" }
	return []gates.Result{
		{Name: "vet", Kind: gates.KindCheck, Status: gates.StatusPass, ExitCode: 0, Duration: 312 * time.Millisecond,
			Log: log("vet"), Reason: "exit status 0", Command: "go vet ./..."},
		{Name: "test", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Duration: 4100 * time.Millisecond,
			Log: log("test"), Reason: "exit status 1", Command: "go test -race ./...",
			Hint: "Run `go test -run TestX ./pkg` to iterate.",
			Tail: "=== RUN   TestX\n    x_test.go:12: got <nil> & want \"a|b\"\n--- FAIL: TestX (0.00s)\n::endgroup::\nFAIL\n\x1b[31mFAIL\x1b[0m\tgithub.com/x/pkg\t0.01s\n",
			Findings: []gates.Finding{
				{File: "pkg/x_test.go", Line: 12, Severity: "error", Message: "got <nil> & want \"a|b\"\nsecond line", Rule: "TestX"},
				{Severity: "error", Message: "--- FAIL: TestY", Rule: "TestY"},
			}},
		{Name: "lint", Kind: gates.KindCheck, Status: gates.StatusWarn, ExitCode: 1, Duration: 65 * time.Second,
			Log: log("lint"), Reason: "exit status 1", Hint: "Run `golangci-lint run --fix` first.",
			Tail:     "main.go:3:1: exported func Foo should have comment\n",
			Findings: []gates.Finding{{File: "dir with space/main.go", Line: 3, Column: 1, Severity: "warning", Message: "exported func Foo should have comment", Rule: "revive,%"}}},
		{Name: "typecheck", Kind: gates.KindCheck, Status: gates.StatusError, ExitCode: 127, Duration: 5 * time.Millisecond,
			Log: log("typecheck"), Reason: "exit status 127: command not found", Tail: "sh: 1: tsc: not found\n"},
		{Name: "review", Kind: gates.KindReview, Status: gates.StatusCancelled, ExitCode: -1, Duration: 0,
			Reason: "cancelled"},
		{Name: "docs", Kind: gates.KindCheck, Status: gates.StatusSkipped, ExitCode: -1,
			Reason: "no changed file matches paths"},
	}
}

func fixtureReport() Report {
	return New("20261121T093000Z-4f2a", fixtureStart, 65432*time.Millisecond, fixtureResults())
}
