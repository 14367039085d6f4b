package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/lock"
)

func TestDescribeLock(t *testing.T) {
	started := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	now := started.Add(3 * time.Minute)
	when := started.Local().Format("2006-01-02 15:04:05 MST")
	holder := func(kind string, gates ...string) lock.Holder {
		return lock.Holder{PID: 42, Started: started, Kind: kind, Gates: gates, GateCount: len(gates)}
	}
	many := holder(lock.KindRun, "a", "b", "c", "d", "e", "f", "g")
	many.Gates = many.Gates[:6] // the record cut them short
	tests := []struct {
		name string
		a    lock.Activity
		want string
	}{
		{"nothing", lock.Activity{}, ""},
		{"run", lock.Activity{State: lock.Held, Holder: holder(lock.KindRun, "lint", "test")},
			"in progress: gauntlet run, pid 42, started " + when + " (3 minutes ago), gates lint, test"},
		{"stop hook", lock.Activity{State: lock.Held, Holder: holder(lock.KindStopHook)},
			"in progress: the stop hook, pid 42, started " + when + " (3 minutes ago)"},
		{"judge", lock.Activity{State: lock.Held, Holder: holder(lock.KindJudge)},
			"in progress: the stop hook's background judge, pid 42, started " + when + " (3 minutes ago)"},
		{"older gauntlet", lock.Activity{State: lock.Held, Holder: holder("")},
			"in progress: a gauntlet run, pid 42, started " + when + " (3 minutes ago)"},
		{"many gates", lock.Activity{State: lock.Held, Holder: many},
			"in progress: gauntlet run, pid 42, started " + when + " (3 minutes ago), gates a, b, c, d, e and 2 more"},
		{"no record yet", lock.Activity{State: lock.Held},
			"in progress: the run lock (.gauntlet/lock) is held; its holder has not said what for"},
		{"foreign", lock.Activity{State: lock.Held, Foreign: "pid 7 (flock .gauntlet/lock sleep 1d)"},
			"in progress: the run lock (.gauntlet/lock) is held by pid 7 (flock .gauntlet/lock sleep 1d), which is not a gauntlet run"},
		{"interrupted", lock.Activity{State: lock.Interrupted, Holder: holder(lock.KindStopHook)},
			"interrupted: the stop hook, pid 42, started " + when + " (3 minutes ago), ended without releasing the run lock (killed, or it crashed)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeLock(tt.a, now); got != tt.want {
				t.Errorf("describeLock =\n%q, want\n%q", got, tt.want)
			}
		})
	}
}

// The record is a file anything can write: a gate name cannot put escape sequences or a second
// line on the terminal, and an unknown kind is not echoed.
func TestDescribeLockPlantedRecord(t *testing.T) {
	h := lock.Holder{PID: 1, Started: time.Now(), Kind: "\x1b[2Jallowed", Gates: []string{"a\x1b[31m\nallow: yes"}, GateCount: 1}
	got := describeLock(lock.Activity{State: lock.Held, Holder: h}, time.Now())
	if strings.ContainsAny(got, "\x1b\n") || strings.Contains(got, "allowed") {
		t.Errorf("describeLock = %q, want no escape, no newline, no unknown kind", got)
	}
}
