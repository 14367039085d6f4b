package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// MaxTimingsBytes bounds a timings file: a gauntlet JSON report holds bounded tails, so a larger
// file is not one of ours.
const MaxTimingsBytes = 64 << 20

// ReadDeadline bounds reading a timings file or a report: a file restored from a cache or an
// artifact is not gauntlet's own, and a FIFO or a blocking pseudo-file must not hang CI.
const ReadDeadline = 10 * time.Second

// ReadFile reads a timings file or a JSON report: a regular file only, at most max bytes, within
// ReadDeadline.
func ReadFile(path string, max int64) ([]byte, error) {
	return safefile.ReadFile(path, max, time.Now().Add(ReadDeadline))
}

// Timings are the recorded durations of gates, by name.
type Timings map[string]time.Duration

// ReadTimings reads a timings file: a gauntlet JSON report (of one run, or several merged by
// `gauntlet report merge`), or a plain {"gate": milliseconds} object. A missing file satisfies
// errors.Is(err, fs.ErrNotExist).
func ReadTimings(path string) (Timings, error) {
	data, err := ReadFile(path, MaxTimingsBytes)
	if err != nil {
		return nil, fmt.Errorf("timings: %w", err)
	}
	t, err := ParseTimings(data)
	if err != nil {
		return nil, fmt.Errorf("timings %s: %w", path, err)
	}
	return t, nil
}

// reportGate is the part of a JSON report gate that timings need. It is decoded apart from the
// report package so that a report of a newer gauntlet, with fields this one does not know, still
// gives its durations.
type reportGate struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMS *int64 `json:"duration_ms"`
	Cached     bool   `json:"cached"`
}

// ParseTimings reads the content of a timings file.
func ParseTimings(data []byte) (Timings, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if raw, ok := top["gates"]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		return reportTimings(raw)
	}
	t := make(Timings, len(top))
	for name, raw := range top {
		var ms float64
		if err := json.Unmarshal(raw, &ms); err != nil || ms < 0 {
			return nil, fmt.Errorf("neither a gauntlet JSON report nor a {\"gate\": milliseconds} object (%q is not a number of milliseconds)", name)
		}
		t[name] = time.Duration(ms * float64(time.Millisecond))
	}
	return t, nil
}

// reportTimings reads the durations of a JSON report's gates.
func reportTimings(raw json.RawMessage) (Timings, error) {
	var gs []reportGate
	if err := json.Unmarshal(raw, &gs); err != nil {
		return nil, fmt.Errorf("gates of the report: %w", err)
	}
	t := Timings{}
	for _, g := range gs {
		if g.timed() {
			t[g.Name] = time.Duration(*g.DurationMS) * time.Millisecond
		}
	}
	return t, nil
}

// timed reports whether the gate's duration tells how long it takes: only a gate that really
// ran does; a skipped or cancelled one did not, and a cache hit took no time at all.
func (g reportGate) timed() bool {
	switch g.Status {
	case "pass", "fail", "warn", "error":
	default:
		return false
	}
	return !g.Cached && g.DurationMS != nil && *g.DurationMS >= 0 && g.Name != ""
}
