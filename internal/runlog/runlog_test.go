package runlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

func openState(t *testing.T) *state.Dir {
	t.Helper()
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sd.Close() })
	return sd
}

// Each run is read back as it was recorded, oldest first, with each gate's status and time.
func TestAppendRead(t *testing.T) {
	sd := openState(t)
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, v := range []gates.Status{gates.StatusFail, gates.StatusPass} {
		r := report.New("r"+string(rune('0'+i)), start.Add(time.Duration(i)*time.Hour), 3*time.Second, []gates.Result{
			{Name: "lint", Status: v, Duration: 2 * time.Second},
			{Name: "vet", Status: gates.StatusPass, Cached: true},
		})
		r.Verdict = gates.Verdict(v)
		if err := Append(sd, Of(r)); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := Read(sd)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Verdict != "fail" || runs[1].Verdict != "pass" || !runs[0].Time.Equal(start) {
		t.Fatalf("runs = %+v", runs)
	}
	if g := runs[0].Gates; len(g) != 2 || g[0] != (Gate{Name: "lint", Status: "fail", DurationMS: 2000}) || !g[1].Cached {
		t.Errorf("gates = %+v", g)
	}
}

// The file never grows past its cap: the oldest runs go, the newest stay readable.
func TestAppendIsBounded(t *testing.T) {
	sd := openState(t)
	rec := Record{Time: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Verdict: "pass",
		Gates: []Gate{{Name: strings.Repeat("g", 1000), Status: "pass"}}}
	for i := 0; i < 1200; i++ {
		rec.RunID = strings.Repeat("x", i%7) + "last"
		if err := Append(sd, rec); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Join(sd.Path(), File))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > maxBytes {
		t.Errorf("run history is %d bytes, past its cap of %d", info.Size(), maxBytes)
	}
	runs, err := Read(sd)
	if err != nil || len(runs) == 0 || runs[len(runs)-1].RunID != rec.RunID {
		t.Errorf("after rotation: %d runs, err %v", len(runs), err)
	}
}

// No history yet is no error.
func TestReadNothing(t *testing.T) {
	if runs, err := Read(openState(t)); err != nil || runs != nil {
		t.Errorf("Read = %v, %v", runs, err)
	}
}
