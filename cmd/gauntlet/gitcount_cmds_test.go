package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["gitcount"] = cmdGitCount
}

// cmdGitCount counts the git processes gauntlet starts, through a `git` first on PATH that
// notes each call and then runs the real git:
//
//	gitcount start     put the counting git first on PATH; forget earlier calls
//	gitcount max N     assert at most N calls since start (the calls are printed when there are more)
//	gitcount stop      take the counting git off PATH again
func cmdGitCount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: gitcount start | max N | stop")
	}
	// The counting git lives outside $WORK, so that the repository under test never sees it.
	dir := ts.Getenv("GITCOUNT_DIR")
	log := filepath.Join(dir, "calls")
	switch args[0] {
	case "start":
		if dir != "" {
			ts.Fatalf("gitcount: already started")
		}
		real, err := exec.LookPath("git")
		if err != nil {
			ts.Fatalf("gitcount: %v", err)
		}
		dir, err = os.MkdirTemp("", "gitcount")
		ts.Check(err)
		ts.Defer(func() { os.RemoveAll(dir) })
		ts.Setenv("GITCOUNT_DIR", dir)
		log = filepath.Join(dir, "calls")
		script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'" + log + "'\nexec '" + real + "' \"$@\"\n"
		ts.Check(os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755))
		ts.Check(os.WriteFile(log, nil, 0o644))
		ts.Setenv("PATH", dir+string(os.PathListSeparator)+ts.Getenv("PATH"))
	case "max":
		if dir == "" {
			ts.Fatalf("gitcount: not started")
		}
		if len(args) != 2 {
			ts.Fatalf("usage: gitcount max N")
		}
		want, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("gitcount: %v", err)
		}
		calls := strings.Count(ts.ReadFile(log), "\n")
		if calls > want {
			ts.Logf("git calls:\n%s", ts.ReadFile(log))
			ts.Fatalf("%d git processes, want at most %d", calls, want)
		}
		ts.Logf("%d git processes (at most %d)", calls, want)
		ts.Check(os.WriteFile(log, nil, 0o644))
	case "stop":
		ts.Setenv("PATH", strings.TrimPrefix(ts.Getenv("PATH"), dir+string(os.PathListSeparator)))
		ts.Setenv("GITCOUNT_DIR", "")
	default:
		ts.Fatalf("usage: gitcount start | max N | stop")
	}
}
