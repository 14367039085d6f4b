//go:build unix

package main

import "syscall"

// detached puts a background judge in a session of its own: a Ctrl-C or hang-up meant for the
// host does not reach it, and it outlives the short-lived after-edit hook.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
