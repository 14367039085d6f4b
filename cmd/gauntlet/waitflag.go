package main

import (
	"errors"
	"time"

	"github.com/spf13/pflag"
)

// defaultLockWait bounds a bare --wait: every wait has a deadline.
const defaultLockWait = 10 * time.Minute

// waitFlag is --wait[=DURATION], how long to wait for another run's lock; bare, defaultLockWait.
type waitFlag time.Duration

func (w *waitFlag) String() string {
	if *w == 0 {
		return ""
	}
	return time.Duration(*w).String()
}

func (w *waitFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return errors.New("takes a duration such as 30s or 5m")
	}
	*w = waitFlag(d)
	return nil
}

func (w *waitFlag) Type() string { return "duration" }

func addWaitFlag(f *pflag.FlagSet, w *time.Duration) {
	f.Var((*waitFlag)(w), "wait", "wait up to DURATION for another run's lock instead of failing at once (bare --wait: 10m)")
	f.Lookup("wait").NoOptDefVal = defaultLockWait.String()
}
