//go:build linux

package proc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// backgroundNice and the idle I/O class are what a background judge runs at: the agent's own
// tools, and the user, come first.
const (
	backgroundNice   = 10
	ioprioClassIdle  = 3
	ioprioClassShift = 13
	ioprioWhoProcess = 1
)

// Background lowers this process's CPU and I/O priority, for work nobody waits for yet. Linux
// applies both per thread, so every thread is lowered; threads started later, and every child,
// inherit it from the thread that starts them. Best effort: a failure leaves the priority as it was.
func Background() {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		unix.Setpriority(unix.PRIO_PROCESS, tid, backgroundNice)
		unix.Syscall(unix.SYS_IOPRIO_SET, ioprioWhoProcess, uintptr(tid), ioprioClassIdle<<ioprioClassShift)
	}
}
