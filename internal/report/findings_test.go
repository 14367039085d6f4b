package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

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

// A short output whose every line is a finding already listed is said once, as the findings:
// go vet's one line was shown under findings: and again under output:. An output with anything
// else in it (a line no finding came from) is still shown whole.
func TestTextOutputOfFindingsOnlyShownOnce(t *testing.T) {
	vet := gates.Finding{File: "main.go", Line: 7, Column: 14, Severity: "error", Message: "fmt.Printf format %d has arg s of wrong type string"}
	line := "main.go:7:14: fmt.Printf format %d has arg s of wrong type string"
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "vet", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Tail: line + "\n", Findings: []gates.Finding{vet}},
	})
	var b bytes.Buffer
	if err := WriteText(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "fmt.Printf format"); got != 1 || strings.Contains(b.String(), "output:") {
		t.Errorf("the finding is said %d times, want once and no output: section:\n%s", got, b.String())
	}

	r = New("id", time.Now(), time.Second, []gates.Result{
		{Name: "vet", Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1", Tail: line + "\nvet: 1 more thing went wrong\n", Findings: []gates.Finding{vet}},
	})
	b.Reset()
	if err := WriteText(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "output:\n    "+line+"\n    vet: 1 more thing went wrong\n") {
		t.Errorf("an output with more than the findings is not shown whole:\n%s", b.String())
	}
}
