//go:build bench

// Command measure runs a command and prints its wall time, peak resident memory, exit code and
// CPU time, so the bench scripts need nothing beyond Go (no GNU time).
//
//	measure [-stdin FILE] [-dir DIR] COMMAND [ARGS...]
//
// prints "wall_seconds peak_rss_kib exit_code cpu_seconds". The command's output goes to
// measure's stderr. CPU time is user plus system, of the command and the descendants it waited
// for; peak memory is the largest single process among them.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

func main() {
	stdin := flag.String("stdin", "", "file to give the command on stdin")
	dir := flag.String("dir", "", "directory to run the command in")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: measure [-stdin FILE] [-dir DIR] COMMAND [ARGS...]   (prints: wall_seconds peak_rss_kib exit_code cpu_seconds)")
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Dir = *dir
	if *stdin != "" {
		f, err := os.Open(*stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(2)
		}
		defer f.Close()
		cmd.Stdin = f
	}
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
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Printf("%.4f %d %d %.4f\n", wall.Seconds(), rss, cmd.ProcessState.ExitCode(), cpu.Seconds())
}
