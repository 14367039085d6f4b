//go:build bench

// Command measure runs a command and prints its wall time and peak resident memory, so the bench
// script needs nothing beyond Go (no GNU time).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: measure COMMAND [ARGS...]   (prints: wall_seconds peak_rss_kib exit_code)")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(2)
	}
	// Maxrss is the largest of the command and the descendants it waited for: KiB on Linux,
	// bytes on macOS.
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if runtime.GOOS == "darwin" {
		rss /= 1024
	}
	fmt.Printf("%.3f %d %d\n", wall.Seconds(), rss, cmd.ProcessState.ExitCode())
}
