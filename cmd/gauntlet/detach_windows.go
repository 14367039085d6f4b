//go:build windows

package main

import "syscall"

// detached starts a background judge without a console of its own or the host's Ctrl-C.
func detached() *syscall.SysProcAttr {
	const createNewProcessGroup, detachedProcess = 0x00000200, 0x00000008
	return &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess}
}
