package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestNew(t *testing.T) {
	r := fixtureReport()
	if r.SchemaVersion != 1 || r.RunID != "20261121T093000Z-4f2a" || r.DurationMS != 65432 {
		t.Errorf("header = %d %q %d", r.SchemaVersion, r.RunID, r.DurationMS)
	}
	if r.StartedAt != "2026-11-21T09:30:00Z" {
		t.Errorf("StartedAt = %q, want UTC whole seconds", r.StartedAt)
	}
	if r.Verdict != gates.VerdictFail {
		t.Errorf("Verdict = %q, want fail", r.Verdict)
	}
	var names []string
	for _, g := range r.Gates {
		names = append(names, g.Name)
	}
	if want := []string{"vet", "test", "lint", "typecheck", "review", "docs"}; !slices.Equal(names, want) {
		t.Errorf("gate order = %v, want %v", names, want)
	}
	if c := r.Gates[1].ExitCode; c == nil || *c != 1 {
		t.Errorf("exit code of test = %v, want 1", c)
	}
	if r.Gates[4].ExitCode != nil {
		t.Errorf("exit code of a cancelled gate = %d, want nil", *r.Gates[4].ExitCode)
	}
}

func TestNewWithoutGatesPasses(t *testing.T) {
	r := New("id", time.Unix(0, 0), 0, nil)
	if r.Verdict != gates.VerdictPass {
		t.Errorf("Verdict = %q, want pass", r.Verdict)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"gates": []`) {
		t.Errorf("empty run must encode gates as [], got:\n%s", b.String())
	}
}

// TestJSONShape pins the field names of SPEC §4: they may be added to, never renamed.
func TestJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, fixtureReport()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "}\n") {
		t.Error("JSON report must end with a newline")
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"schema_version", "run_id", "verdict", "started_at", "duration_ms", "gates"} {
		if _, ok := doc[key]; !ok {
			t.Errorf("report lacks %q", key)
		}
	}
	gate := doc["gates"].([]any)[4].(map[string]any)
	for _, key := range []string{"name", "kind", "status", "exit_code", "duration_ms", "timed_out", "log", "reason", "tail"} {
		if _, ok := gate[key]; !ok {
			t.Errorf("gate lacks %q", key)
		}
	}
	if gate["exit_code"] != nil {
		t.Errorf("exit_code = %v, want null", gate["exit_code"])
	}
}

func TestJSONRoundTrip(t *testing.T) {
	want := fixtureReport()
	var b bytes.Buffer
	if err := WriteJSON(&b, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	// What is read back is cleaned as a run's own results are (the fixture's tail holds an
	// escape sequence, which a run would have stripped).
	for i := range want.Gates {
		want.Gates[i] = cleanGate(want.Gates[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the report:\n got %+v\nwant %+v", got, want)
	}
}

func TestReadJSONErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "unexpected end"},
		{"not json", "{oops", "invalid character"},
		{"no version", `{"run_id": "x"}`, "schema_version 0"},
		{"newer version", `{"schema_version": 2}`, "schema_version 2"},
		{"trailing garbage", `{"schema_version": 1} x`, "invalid character"},
		{"unknown status", `{"schema_version": 1, "verdict": "pass", "gates": [{"name": "a", "status": "bogus"}]}`, `status "bogus"`},
		{"verdict not of its gates", `{"schema_version": 1, "verdict": "pass", "gates": [{"name": "a", "status": "fail"}]}`, `its gates make it "fail"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadJSON(%q) error = %v, want one containing %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestReadJSONIgnoresUnknownFields(t *testing.T) {
	r, err := ReadJSON(strings.NewReader(`{"schema_version": 1, "verdict": "pass", "future": true, "gates": [{"name": "a", "status": "pass", "new": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != gates.VerdictPass || len(r.Gates) != 1 || r.Gates[0].Name != "a" {
		t.Errorf("got %+v", r)
	}
}

func TestReadJSONRefusesHugeInput(t *testing.T) {
	defer func(n int) { maxReportBytes = n }(maxReportBytes)
	maxReportBytes = 1 << 10
	huge := strings.NewReader(`{"schema_version": 1, "run_id": "` + strings.Repeat("x", maxReportBytes) + `"}`)
	if _, err := ReadJSON(huge); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("error = %v, want a size error", err)
	}
}

func TestTally(t *testing.T) {
	gs := func(ss ...gates.Status) []GateReport {
		var out []GateReport
		for _, s := range ss {
			out = append(out, GateReport{Status: s})
		}
		return out
	}
	tests := []struct {
		in   []GateReport
		want string
	}{
		{nil, "no gates ran"},
		{gs(gates.StatusPass, gates.StatusPass), "2 passed"},
		{gs(gates.StatusWarn, gates.StatusWarn, gates.StatusPass), "2 warnings, 1 passed"},
		{gs(gates.StatusSkipped, gates.StatusFail, gates.StatusError, gates.StatusError), "1 failed, 2 errors, 1 skipped"},
	}
	for _, tt := range tests {
		if got := tally(tt.in); got != tt.want {
			t.Errorf("tally = %q, want %q", got, tt.want)
		}
	}
}
