package state

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestNewRunID(t *testing.T) {
	at := time.Date(2026, 11, 21, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	seen := map[string]bool{}
	for range 20 {
		id := NewRunID(at)
		if !runIDPattern().MatchString(id) {
			t.Fatalf("NewRunID = %q, does not look like a run id", id)
		}
		if id[:17] != "20261121T093000Z-" {
			t.Fatalf("NewRunID = %q, want the UTC time 20261121T093000Z first", id)
		}
		seen[id] = true
	}
	if len(seen) < 2 {
		t.Error("20 run ids of the same second were all equal; the suffix is not random")
	}
	if earlier, later := NewRunID(at), NewRunID(at.Add(time.Second)); earlier >= later {
		t.Errorf("run ids must sort by time: %q >= %q", earlier, later)
	}
}

func TestNewRunLogs(t *testing.T) {
	d := openTestDir(t)
	id := NewRunID(time.Now())
	logs, rel, err := d.NewRunLogs(id)
	if err != nil {
		t.Fatalf("NewRunLogs: %v", err)
	}
	defer logs.Close()
	if want := ".gauntlet/logs/" + id; rel != want {
		t.Errorf("relative path = %q, want %q", rel, want)
	}
	f, err := logs.Create("vet.log")
	if err != nil {
		t.Fatalf("creating a log through the returned root: %v", err)
	}
	f.Close()
	if _, err := os.Stat(filepath.Join(d.Path(), "logs", id, "vet.log")); err != nil {
		t.Errorf("log not where expected: %v", err)
	}
}

func TestNewRunLogsRejectsBadIDs(t *testing.T) {
	d := openTestDir(t)
	for _, id := range []string{"", ".", "..", "a/b", "../x", "x\x00"} {
		if logs, _, err := d.NewRunLogs(id); err == nil {
			logs.Close()
			t.Errorf("NewRunLogs(%q) succeeded", id)
		}
	}
}

func TestNewRunLogsThroughPlantedSymlinkStaysInside(t *testing.T) {
	d := openTestDir(t)
	outside := t.TempDir()
	mustSymlink(t, outside, filepath.Join(d.Path(), "logs"))

	logs, _, err := d.NewRunLogs(NewRunID(time.Now()))
	if err == nil {
		// Tolerated only if everything still lands inside the state dir.
		if f, cerr := logs.Create("vet.log"); cerr == nil {
			f.Close()
		}
		logs.Close()
	}
	assertEmpty(t, outside)
}

func TestPruneRuns(t *testing.T) {
	runs := []string{
		"20261121T090000Z-aaaa",
		"20261121T091000Z-bbbb",
		"20261121T092000Z-cccc",
		"20261121T093000Z-dddd",
	}
	tests := []struct {
		name    string
		keep    int
		current string
		want    []string
	}{
		{"keep more than exist", 10, "", runs},
		{"keep the newest two", 2, "", runs[2:]},
		{"current counts as one of the kept", 2, runs[0], []string{runs[0], runs[3]}},
		{"current alone fills keep one", 1, runs[1], []string{runs[1]}},
		{"keep zero keeps only the current", 0, runs[1], []string{runs[1]}},
		{"keep zero without a current removes all", 0, "", nil},
		{"negative keep behaves like zero", -3, runs[3], []string{runs[3]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := openTestDir(t)
			logs := filepath.Join(d.Path(), "logs")
			for _, r := range runs {
				if err := os.MkdirAll(filepath.Join(logs, r), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(logs, r, "vet.log"), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Entries that are not run directories must never be touched.
			if err := os.Mkdir(filepath.Join(logs, "notes"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(logs, "20261121T080000Z-eeee"), nil, 0o644); err != nil {
				t.Fatal(err)
			}

			if err := d.PruneRuns(tt.keep, tt.current); err != nil {
				t.Fatalf("PruneRuns: %v", err)
			}
			entries, err := os.ReadDir(logs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			want := append(slices.Clone(tt.want), "20261121T080000Z-eeee", "notes")
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("remaining = %v, want %v", got, want)
			}
		})
	}
}

// Runs started in the same second differ only by their random suffix: the newer directory must
// win, not the larger suffix.
func TestPruneRunsSameSecondKeepsNewest(t *testing.T) {
	d := openTestDir(t)
	logs := filepath.Join(d.Path(), "logs")
	older, newer := "20261121T090000Z-ffff", "20261121T090000Z-0000"
	base := time.Now().Add(-time.Hour)
	for i, r := range []string{older, newer} {
		dir := filepath.Join(logs, r)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(dir, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.PruneRuns(1, ""); err != nil {
		t.Fatalf("PruneRuns: %v", err)
	}
	if _, err := os.Stat(filepath.Join(logs, newer)); err != nil {
		t.Errorf("the newer run was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(logs, older)); !os.IsNotExist(err) {
		t.Errorf("the older run was kept (stat: %v)", err)
	}
}

func TestPruneRunsWithoutLogsDir(t *testing.T) {
	d := openTestDir(t)
	if err := d.PruneRuns(3, ""); err != nil {
		t.Errorf("PruneRuns with no logs dir: %v", err)
	}
}
