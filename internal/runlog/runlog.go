// Package runlog keeps a bounded history of gauntlet's runs (.gauntlet/state/runs.jsonl): when
// each ran, its verdict and time, and each gate's status and time, so that the history page can
// say what ran, how long it took and what failed, per gate over time. last-run.json holds only
// the newest run; the stop hook's history only the stops.
package runlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// File is the run history, relative to the state directory.
const File = "state/runs.jsonl"

// The file's bounds: past maxBytes it keeps its newest half; a record keeps at most maxGates
// gates (the failing ones first). Reading takes at most readBytes from its end.
const (
	maxBytes  = 512 << 10
	readBytes = maxBytes + 64<<10
	maxGates  = 64
)

// Record is one run.
type Record struct {
	Time       time.Time `json:"time"`
	RunID      string    `json:"run_id"`
	Verdict    string    `json:"verdict"`
	DurationMS int64     `json:"duration_ms"`
	Gates      []Gate    `json:"gates"`
	// Dropped counts the gates left out past maxGates.
	Dropped int `json:"dropped,omitempty"`
	// Stop: the stop hook ran it for an agent's session (whose history keeps its gates too).
	Stop bool `json:"stop,omitempty"`
}

// Gate is one gate's outcome in a run.
type Gate struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	Cached     bool   `json:"cached,omitempty"`
}

// Of is the record of a run's report.
func Of(r report.Report) Record {
	rec := Record{RunID: r.RunID, Verdict: string(r.Verdict), DurationMS: r.DurationMS}
	if t, err := time.Parse(time.RFC3339, r.StartedAt); err == nil {
		rec.Time = t.UTC()
	}
	for _, g := range r.Gates {
		if len(rec.Gates) == maxGates {
			rec.Dropped++
			continue
		}
		rec.Gates = append(rec.Gates, Gate{Name: g.Name, Status: string(g.Status), DurationMS: g.DurationMS, Cached: g.Cached})
	}
	return rec
}

// Append adds rec to the history, keeping the newest half once the file has grown past its cap.
func Append(sd *state.Dir, rec Record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode run history: %w", err)
	}
	size, err := sd.AppendFile(File, append(line, '\n'))
	if err != nil {
		return fmt.Errorf("run history: %w", err)
	}
	if size <= maxBytes {
		return nil
	}
	data, _, err := sd.ReadFileTail(File, readBytes)
	if err != nil {
		return nil // the next append tries again
	}
	keep := data[max(0, len(data)-maxBytes/2):]
	if i := bytes.IndexByte(keep, '\n'); i >= 0 && len(keep) < len(data) {
		keep = keep[i+1:] // the first line was cut
	}
	if err := sd.WriteFileAtomic(File, keep); err != nil {
		return fmt.Errorf("rotate run history: %w", err)
	}
	return nil
}

// Read is the recorded runs, oldest first; lines that do not parse (cut by a crash, written by
// hand) are skipped. No history is no error.
func Read(sd *state.Dir) ([]Record, error) {
	data, _, err := sd.ReadFileTail(File, readBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	var out []Record
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec Record
		if len(line) > 0 && json.Unmarshal(line, &rec) == nil && !rec.Time.IsZero() {
			out = append(out, rec)
		}
	}
	return out, nil
}
