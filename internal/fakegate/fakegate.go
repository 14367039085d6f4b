// Package fakegate is a tiny stand-in for real gate tools in end-to-end tests: it exits, prints,
// sleeps, spawns children and ignores signals on request, so tests never depend on real linters.
package fakegate

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// step runs with the arguments that follow it and returns how many it consumed. exit is the one
// step that ends the program, with errExit carrying the code.
type step struct {
	usage string
	run   func(args []string) (int, error)
}

type errExit int

func (e errExit) Error() string { return "exit " + strconv.Itoa(int(e)) }

var steps map[string]step

func init() {
	steps = map[string]step{
		"exit":       {"exit N            exit with code N", exitStep},
		"print":      {"print N [TEXT]    print N numbered lines (TEXT defaults to \"line\")", printStep},
		"echo":       {"echo TEXT         print TEXT", echoTo(os.Stdout)},
		"stderr":     {"stderr TEXT       print TEXT on stderr", echoTo(os.Stderr)},
		"sleep":      {"sleep DURATION    sleep", sleepStep},
		"ignoreterm": {"ignoreterm        ignore SIGTERM from now on", func([]string) (int, error) { signal.Ignore(syscall.SIGTERM); return 0, nil }},
		"spawn":      {"spawn PIDFILE     start a child that ignores SIGTERM and sleeps; write its pid to PIDFILE", spawnStep},
		"pid":        {"pid FILE          write this process's pid to FILE", pidStep},
		"touch":      {"touch FILE        create FILE (a marker that the gate started)", touchStep},
		"waitfor":    {"waitfor FILE D    wait until FILE exists; exit 3 if it does not within D", waitForStep},
		"env":        {"env NAME...       print NAME=value for each variable (NAME= when unset)", envStep},
	}
}

// Main runs the steps given on the command line and exits.
func Main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, usage())
		return 2
	}
	for len(args) > 0 {
		name, rest := args[0], args[1:]
		s, ok := steps[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "fakegate: unknown step %q\n%s\n", name, usage())
			return 2
		}
		n, err := s.run(rest)
		if code, ok := err.(errExit); ok {
			return int(code)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "fakegate %s: %v\n", name, err)
			return 2
		}
		args = rest[n:]
	}
	return 0
}

func usage() string {
	lines := []string{"usage: fakegate STEP [STEP...]", "steps run in order:"}
	for _, s := range steps {
		lines = append(lines, "  "+s.usage)
	}
	slices.Sort(lines[2:])
	return strings.Join(lines, "\n")
}

func need(args []string, k int) error {
	if len(args) < k {
		return fmt.Errorf("needs %d argument(s)", k)
	}
	return nil
}

func exitStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	code, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, err
	}
	return 1, errExit(code)
}

func printStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	count, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, err
	}
	// An optional TEXT follows the count, unless what follows is the next step.
	text, used := "line", 1
	if len(args) > 1 {
		if _, isStep := steps[args[1]]; !isStep {
			text, used = args[1], 2
		}
	}
	for i := 1; i <= count; i++ {
		fmt.Printf("%s %d\n", text, i)
	}
	return used, nil
}

func echoTo(w *os.File) func([]string) (int, error) {
	return func(args []string) (int, error) {
		if err := need(args, 1); err != nil {
			return 0, err
		}
		fmt.Fprintln(w, args[0])
		return 1, nil
	}
}

func sleepStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(args[0])
	if err != nil {
		return 0, err
	}
	time.Sleep(d)
	return 1, nil
}

func spawnStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	child := exec.Command(os.Args[0], "ignoreterm", "sleep", "1h")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		return 0, err
	}
	return 1, os.WriteFile(args[0], []byte(strconv.Itoa(child.Process.Pid)), 0o644)
}

func pidStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	return 1, os.WriteFile(args[0], []byte(strconv.Itoa(os.Getpid())), 0o644)
}

func touchStep(args []string) (int, error) {
	if err := need(args, 1); err != nil {
		return 0, err
	}
	return 1, os.WriteFile(args[0], nil, 0o644)
}

// waitForStep blocks until a test says so by creating a file: a slow gate whose end is an event
// of the test, not a guess at how long the rest of the run takes. The deadline only turns a
// broken test into a failure instead of a hang.
func waitForStep(args []string) (int, error) {
	if err := need(args, 2); err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(args[1])
	if err != nil {
		return 0, err
	}
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(args[0]); err == nil {
			return 2, nil
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "fakegate: %s did not appear within %s\n", args[0], d)
			return 2, errExit(3)
		}
	}
}

func envStep(args []string) (int, error) {
	for _, name := range args {
		fmt.Printf("%s=%s\n", name, os.Getenv(name))
	}
	return len(args), nil
}
