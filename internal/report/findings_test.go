package report

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A report written before findings existed reads with an empty list per gate, never null.
func TestReadJSONOlderReportHasEmptyFindings(t *testing.T) {
	old := `{"schema_version": 1, "run_id": "r", "verdict": "fail", "gates": [{"name": "t", "status": "fail"}]}`
	r, err := ReadJSON(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if r.Gates[0].Findings == nil {
		t.Error("findings of an older report are nil, want []")
	}
}

func TestFindingLine(t *testing.T) {
	tests := []struct {
		f    gates.Finding
		want string
	}{
		{gates.Finding{File: "a.go", Line: 3, Column: 7, Severity: "error", Message: "bad", Rule: "SA1"}, "a.go:3:7: error: bad [SA1]"},
		{gates.Finding{File: "a.go", Severity: "error", Message: "not formatted"}, "a.go: error: not formatted"},
		{gates.Finding{Severity: "error", Message: "--- FAIL: TestX\ndetail"}, "error: --- FAIL: TestX …"},
		{gates.Finding{File: "x\x1b[31m.go", Line: 1, Severity: "warning", Message: "a\tb\x07"}, "x.go:1: warning: a b"},
	}
	for _, tt := range tests {
		if got := FindingLine(tt.f); got != tt.want {
			t.Errorf("FindingLine(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
