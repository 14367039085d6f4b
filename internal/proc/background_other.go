//go:build !linux

package proc

import "syscall"

// Background lowers this process's CPU priority, for work nobody waits for yet; best effort.
func Background() {
	setpriority(syscall.Getpid())
}
