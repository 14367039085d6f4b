//go:build !linux

package proc

import (
	"os/exec"
	"time"
)

// Enable reports false: only Linux reparents orphans to a process that asks for it.
func Enable() bool { return false }

// Enabled reports false.
func Enabled() bool { return false }

// KillOrphans does nothing: without a subreaper, orphans go to init and cannot be told apart.
func KillOrphans(marks []string, after int, within time.Duration) int { return 0 }

// KillMarked does nothing: there is no /proc to read another process's environment from.
func KillMarked(mark string) int { return 0 }

// Own does nothing where there are no orphans to tell apart.
func Own(pid int) (release func()) { return func() {} }

// Start starts cmd.
func Start(cmd *exec.Cmd) (release func(), err error) { return func() {}, cmd.Start() }

// ReapStrays does nothing: without a subreaper, orphans are init's to reap.
func ReapStrays() int { return 0 }
