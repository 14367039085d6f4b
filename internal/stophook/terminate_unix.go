//go:build unix

package stophook

import "syscall"

// terminate asks a judge to stop: SIGTERM, which it turns into the end of its run, stopping its
// gates as any interrupted run does.
func terminate(pid int) { syscall.Kill(pid, syscall.SIGTERM) }
