//go:build unix && !linux

package proc

import "golang.org/x/sys/unix"

func setpriority(pid int) { unix.Setpriority(unix.PRIO_PROCESS, pid, 10) }
