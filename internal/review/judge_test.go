package review

import (
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func TestJudgeVerdictKeepsOnlyFindingsOnAddedLines(t *testing.T) {
	added := snapshot.AddedLines{"pkg/a.go": {10: true, 11: true}, "b.go": {1: true}}
	onA := Finding{File: "pkg/a.go", Line: 10, Severity: "error", Message: "nil map write"}
	tests := []struct {
		name       string
		verdict    Verdict
		wantStatus gates.Status
		wantReason string
		wantLines  []string
	}{
		{
			name:       "fail with a finding on an added line",
			verdict:    Verdict{Status: "fail", Findings: []Finding{onA}},
			wantStatus: gates.StatusFail, wantReason: "1 finding",
			wantLines: []string{"pkg/a.go:10: error: nil map write"},
		},
		{
			name: "a finding outside the diff is dropped and counted",
			verdict: Verdict{Status: "fail", Findings: []Finding{onA,
				{File: "pkg/a.go", Line: 3, Severity: "warning", Message: "old code"}}},
			wantStatus: gates.StatusFail, wantReason: "1 finding (1 outside the diff dropped)",
			wantLines: []string{"pkg/a.go:10: error: nil map write"},
		},
		{
			name: "paths spelled ./, b/ and absolute are recognised",
			verdict: Verdict{Status: "fail", Findings: []Finding{
				{File: "./pkg/a.go", Line: 11, Message: "one"}, {File: "b/b.go", Line: 1, Message: "two"},
				{File: "/repo/pkg/a.go", Line: 10, Message: "three\nlines"}}},
			wantStatus: gates.StatusFail, wantReason: "3 findings",
			wantLines: []string{"pkg/a.go:11: one", "b.go:1: two", "pkg/a.go:10: three lines"},
		},
		{
			name:       "fail whose findings are all outside the diff passes",
			verdict:    Verdict{Status: "fail", Findings: []Finding{{File: "c.go", Line: 1, Message: "not changed"}, {File: "pkg/a.go", Message: "no line"}}},
			wantStatus: gates.StatusPass,
			wantReason: "passed: the reviewer failed the change, but its findings (2) were all outside the diff and dropped",
		},
		{
			name:       "fail without findings fails",
			verdict:    Verdict{Status: "fail"},
			wantStatus: gates.StatusFail, wantReason: "the reviewer failed the change without naming a finding",
		},
		{
			name:       "pass",
			verdict:    Verdict{Status: "pass", Findings: []Finding{}},
			wantStatus: gates.StatusPass, wantReason: "passed: no findings",
		},
		{
			name:       "pass with a finding noted",
			verdict:    Verdict{Status: "pass", Findings: []Finding{onA}},
			wantStatus: gates.StatusPass, wantReason: "passed with 1 finding noted",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := judgeVerdict(&tt.verdict, added, "/repo")
			if j.Status != tt.wantStatus || j.Reason != tt.wantReason {
				t.Errorf("got %s %q, want %s %q", j.Status, j.Reason, tt.wantStatus, tt.wantReason)
			}
			for _, want := range tt.wantLines {
				if !slices.Contains(j.Lines, want) {
					t.Errorf("lines %q lack %q", j.Lines, want)
				}
			}
			for _, line := range j.Lines {
				if strings.Contains(line, "old code") || strings.Contains(line, "not changed") {
					t.Errorf("a dropped finding is listed: %q", line)
				}
			}
		})
	}
}

// A review's findings on added lines reach the reports as gates.Finding, the same path a check
// gate's parsed findings take; the ones outside the diff do not.
func TestJudgeVerdictFindings(t *testing.T) {
	added := snapshot.ParseAdded([]byte("diff --git a/pkg/a.go b/pkg/a.go\n--- a/pkg/a.go\n+++ b/pkg/a.go\n@@ -9,0 +10,1 @@\n+x\n"))
	v := Verdict{Status: "fail", Findings: []Finding{
		{File: "./pkg/a.go", Line: 10, Severity: "High", Message: "nil map write"},
		{File: "pkg/a.go", Line: 3, Severity: "warning", Message: "old code"},
	}}
	j := judgeVerdict(&v, added, "/repo")
	want := []gates.Finding{{File: "pkg/a.go", Line: 10, Severity: "error", Message: "nil map write", Rule: "review"}}
	if !slices.Equal(j.Findings, want) {
		t.Errorf("findings = %+v, want %+v", j.Findings, want)
	}
}
