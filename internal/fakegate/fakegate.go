// Package fakegate is a tiny stand-in for real gate tools in end-to-end tests: it exits, prints,
// sleeps, spawns children and ignores signals on request, so tests never depend on real linters.
package fakegate

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const usage = `usage: fakegate STEP [STEP...]
steps run in order:
  exit N            exit with code N
  print N [TEXT]    print N numbered lines (TEXT defaults to "line")
  printbytes N      print N bytes of output in 64-byte lines (for volume tests)
  echo TEXT         print TEXT
  stderr TEXT       print TEXT on stderr
  sleep DURATION    sleep
  ignoreterm        ignore SIGTERM from now on
  spawn PIDFILE     start a child that ignores SIGTERM and sleeps forever; write its pid to PIDFILE
  pid FILE          write this process's pid to FILE
  touch FILE        create FILE (a marker that the gate started)
  count FILE        append one line to FILE (counts how often the gate ran)
  env NAME...       print NAME=value for each variable (NAME= when unset)`

// Main runs the steps given on the command line and exits.
func Main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, usage)
		return 2
	}
	for len(args) > 0 {
		step, rest := args[0], args[1:]
		n, err := doStep(step, rest)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fakegate %s: %v\n", step, err)
			return 2
		}
		if n < 0 { // exit step
			return -n - 1
		}
		args = rest[n:]
	}
	return 0
}

// doStep runs one step and returns how many arguments it consumed, or -(code+1) for "exit".
func doStep(step string, args []string) (int, error) {
	need := func(k int) error {
		if len(args) < k {
			return fmt.Errorf("needs %d argument(s)", k)
		}
		return nil
	}
	switch step {
	case "exit":
		if err := need(1); err != nil {
			return 0, err
		}
		code, err := strconv.Atoi(args[0])
		if err != nil {
			return 0, err
		}
		return -(code + 1), nil
	case "print":
		if err := need(1); err != nil {
			return 0, err
		}
		count, err := strconv.Atoi(args[0])
		if err != nil {
			return 0, err
		}
		text, used := "line", 1
		if len(args) > 1 && !isStep(args[1]) {
			text, used = args[1], 2
		}
		for i := 1; i <= count; i++ {
			fmt.Printf("%s %d\n", text, i)
		}
		return used, nil
	case "printbytes":
		if err := need(1); err != nil {
			return 0, err
		}
		total, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil {
			return 0, err
		}
		line := []byte(strings.Repeat("x", 63) + "\n")
		for total > 0 {
			chunk := line
			if total < int64(len(chunk)) {
				chunk = chunk[:total]
			}
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 0, err
			}
			total -= int64(len(chunk))
		}
		return 1, nil
	case "echo", "stderr":
		if err := need(1); err != nil {
			return 0, err
		}
		w := os.Stdout
		if step == "stderr" {
			w = os.Stderr
		}
		fmt.Fprintln(w, args[0])
		return 1, nil
	case "sleep":
		if err := need(1); err != nil {
			return 0, err
		}
		d, err := time.ParseDuration(args[0])
		if err != nil {
			return 0, err
		}
		time.Sleep(d)
		return 1, nil
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM)
		return 0, nil
	case "spawn":
		if err := need(1); err != nil {
			return 0, err
		}
		child := exec.Command(os.Args[0], "ignoreterm", "sleep", "1h")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			return 0, err
		}
		return 1, os.WriteFile(args[0], []byte(strconv.Itoa(child.Process.Pid)), 0o644)
	case "pid":
		if err := need(1); err != nil {
			return 0, err
		}
		return 1, os.WriteFile(args[0], []byte(strconv.Itoa(os.Getpid())), 0o644)
	case "touch":
		if err := need(1); err != nil {
			return 0, err
		}
		return 1, os.WriteFile(args[0], nil, 0o644)
	case "count":
		if err := need(1); err != nil {
			return 0, err
		}
		f, err := os.OpenFile(args[0], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		_, err = fmt.Fprintln(f, "run")
		return 1, err
	case "env":
		for _, name := range args {
			fmt.Printf("%s=%s\n", name, os.Getenv(name))
		}
		return len(args), nil
	}
	return 0, fmt.Errorf("unknown step\n%s", usage)
}

func isStep(s string) bool {
	switch s {
	case "exit", "print", "printbytes", "echo", "stderr", "sleep", "ignoreterm", "spawn", "pid", "touch", "count", "env":
		return true
	}
	return false
}
