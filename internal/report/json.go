package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// maxReportBytes bounds what ReadJSON accepts: a report holds bounded tails, so anything larger is
// not one of ours and must not be read into memory. A variable only so tests can lower it.
var maxReportBytes = 64 << 20

// WriteJSON writes the report as indented JSON with a trailing newline.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Tails are full of < > & (compiler output, diffs); \u003c escapes would only hurt reading.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON. Unknown fields are ignored, since newer versions
// only add fields; a report of another schema version is refused rather than misread.
func ReadJSON(rd io.Reader) (Report, error) {
	data, err := io.ReadAll(io.LimitReader(rd, int64(maxReportBytes)+1))
	if err != nil {
		return Report{}, fmt.Errorf("read json report: %w", err)
	}
	if len(data) > maxReportBytes {
		return Report{}, fmt.Errorf("read json report: larger than %d bytes", maxReportBytes)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return Report{}, fmt.Errorf("read json report: %w", err)
	}
	if r.SchemaVersion != SchemaVersion {
		return Report{}, fmt.Errorf("read json report: schema_version %d, want %d", r.SchemaVersion, SchemaVersion)
	}
	if r.Gates == nil {
		r.Gates = []GateReport{}
	}
	results := make([]gates.Result, len(r.Gates))
	for i := range r.Gates {
		if r.Gates[i].Findings == nil {
			r.Gates[i].Findings = []gates.Finding{} // a report from before findings existed
		}
		if !knownStatus(r.Gates[i].Status) {
			return Report{}, fmt.Errorf("read json report: gate %q has status %q, not one gauntlet writes", r.Gates[i].Name, r.Gates[i].Status)
		}
		results[i] = gates.Result{Status: r.Gates[i].Status}
	}
	// A report is one verdict of its gates; one that says otherwise was not written by gauntlet,
	// and believing either half could turn a failure into a pass.
	if want := gates.VerdictOf(results); r.Verdict != want {
		return Report{}, fmt.Errorf("read json report: verdict %q, but its gates make it %q", r.Verdict, want)
	}
	return r, nil
}

func knownStatus(s gates.Status) bool {
	switch s {
	case gates.StatusPass, gates.StatusFail, gates.StatusWarn, gates.StatusError, gates.StatusSkipped, gates.StatusCancelled:
		return true
	}
	return false
}
