package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gauntlet-dev/gauntlet/internal/fakegate"
	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// TestMain makes this test binary double as the real gauntlet and as the fake gate program, so
// the scripts in testdata/script drive exactly what users run.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gauntlet": func() {
			// Only this test binary lets the environment pose as another gauntlet version: the
			// cache must not answer across versions.
			if v := os.Getenv("GAUNTLET_TEST_VERSION"); v != "" {
				version = v
			}
			os.Exit(Main(os.Args[1:], systemStreams()))
		},
		"fakegate": fakegate.Main,
		// gauntlet with an hour between SIGTERM and SIGKILL: only a second Ctrl-C can end a gate
		// that ignores SIGTERM before the scripts' hang deadlines.
		"gauntlet-patient": func() {
			killGrace = time.Hour
			os.Exit(Main(os.Args[1:], systemStreams()))
		},
		// gauntlet whose host may take an hour to signal it after one of its gates died of the same
		// signal: a script decides by the order of the signals alone, never by how fast it sends them.
		"gauntlet-slowhost": func() {
			stopSignalWindow = time.Hour
			os.Exit(Main(os.Args[1:], systemStreams()))
		},
	})
}

// scriptCmds are the commands the scripts have beyond testscript's own. Test files of other
// commands add theirs from an init function.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"pidgone":    cmdPidGone,
	"judges":     cmdJudges,
	"waitfile":   cmdWaitFile,
	"waitgrep":   cmdWaitGrep,
	"lines":      cmdLines,
	"exitcode":   cmdExitCode,
	"interrupt":  cmdInterrupt,
	"hookcall":   cmdHookCall,
	"jsonschema": cmdJSONSchema,
	"maxbytes":   cmdMaxBytes,
}

func TestScripts(t *testing.T) {
	if testing.Short() {
		// The quick gate of `make run` (go test -short): the scripts start real processes by the
		// thousand and take minutes; `make test` and the race gate run every one of them.
		t.Skip("-short: the end-to-end scripts run in make test and in the race gate")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// A predictable git identity and no user config, for the scripts that make repositories.
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_AUTHOR_NAME", "t")
			env.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "t")
			env.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
			// `exec timeout $HANG_GUARD gauntlet ...` turns a hang into a failure; it is no bound
			// on speed, which a loaded machine or the race detector would break.
			env.Setenv("HANG_GUARD", strconv.Itoa(int(hangGuard(60*time.Second).Seconds())))
			// The scripts that run the Go tool share this machine's build cache: HOME is no home
			// in a script, and a cold cache would cost each of them minutes. The module cache is
			// the script's own and empty, so that what the Go tool finds offline is the same on
			// every machine.
			if dir := goCache(); dir != "" {
				env.Setenv("GOCACHE", dir)
			}
			env.Setenv("GOMODCACHE", filepath.Join(env.WorkDir, ".gomodcache"))
			// The key that seals gauntlet's state lives in the user's state directory: each script
			// gets its own, outside its work tree (where it would be a change to the tree).
			userState, err := os.MkdirTemp("", "gauntlet-user-state-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(userState) })
			env.Setenv("XDG_STATE_HOME", userState)
			return nil
		},
		Cmds:      scriptCmds,
		Condition: scriptCondition,
		// UPDATE_SCRIPTS=1 rewrites the files a `cmp` compares with, for a change meant to alter
		// them; the diff is then reviewed like any other.
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

// hangGuard scales a hang guard for the race detector. Guards are many times what an honest run
// takes on a loaded machine: they catch hangs, never slowness.
func hangGuard(d time.Duration) time.Duration { return d * raceFactor }

// goCache is the Go tool's build cache on this machine, asked once; "" without go.
var goCache = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// scriptCondition adds [root] (the scripts that hand files to another user need to be root),
// [nginx] (the remote cache is tested against a real nginx) and [browser] (the HTML reports are
// rendered in headless Chromium).
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "root":
		return os.Geteuid() == 0, nil
	case "nginx":
		return nginxPath() != "", nil
	case "browser":
		return browserPath() != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// cmdPidGone asserts that the process whose pid is in FILE no longer exists. Killed processes
// are reaped asynchronously, so it polls for a while before failing; a zombie counts as gone.
func cmdPidGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pidgone PIDFILE")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("pidgone: %v", err)
	}
	deadline := time.Now().Add(hangGuard(10 * time.Second))
	for {
		if !testos.Alive(pid) {
			return
		}
		if time.Now().After(deadline) {
			testos.Kill(pid) // leave nothing behind, even on failure
			ts.Fatalf("process %d is still alive", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cmdJudges waits, up to a deadline, until a background judge of the repository at DIR runs
// (`judges running DIR`) or none does (`judges gone DIR`), found by their command lines in /proc:
// a judge in its quiet period has recorded no pid yet. A judge left when gone fails is ended.
func cmdJudges(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[0] != "running" && args[0] != "gone") {
		ts.Fatalf("usage: judges running|gone DIR")
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		ts.Fatalf("judges: no /proc to list processes")
	}
	root, want := ts.MkAbs(args[1]), args[0] == "running"
	deadline := time.Now().Add(hangGuard(10 * time.Second))
	for {
		pids := judgesOf(root)
		if (len(pids) > 0) == want {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				testos.Kill(pid)
			}
			ts.Fatalf("judges of %s: %d running, want %s", root, len(pids), args[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// judgesOf lists the processes whose command line is gauntlet's judge of root.
func judgesOf(root string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
		if len(args) > 2 && args[1] == "judge" && slices.Contains(args, "--root") && slices.Contains(args, root) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// cmdWaitFile waits until FILE exists: how a script knows a background gate has started.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(hangGuard(30 * time.Second))
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear within %s", args[0], hangGuard(30*time.Second))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cmdWaitGrep waits until FILE, written by a program running in the background, has a line
// matching PATTERN ("waitgrep PATTERN FILE"): what the program printed so far, looked at while
// it still runs, with a deadline rather than a guessed sleep.
func cmdWaitGrep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitgrep PATTERN FILE")
	}
	re, err := regexp.Compile("(?m)" + args[0])
	ts.Check(err)
	path := ts.MkAbs(args[1])
	limit := hangGuard(60 * time.Second)
	deadline := time.Now().Add(limit)
	for {
		data, err := os.ReadFile(path)
		if err == nil && re.Match(data) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no line of %s matched %q within %s; it has:\n%s", args[1], args[0], limit, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cmdLines asserts the number of lines in FILE ("lines FILE N").
func cmdLines(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: lines FILE N")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("lines: %v", err)
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("lines: %v", err)
	}
	got := strings.Count(string(data), "\n")
	if (got == want) == neg {
		ts.Fatalf("%s has %d lines, want %s%d", filepath.Base(args[0]), got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// cmdExitCode runs a program like exec does, but asserts its exact exit code
// ("exitcode 3 gauntlet run"): the product's exit codes are a contract, not just zero or not.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdInterrupt checks what Ctrl-C does to a run: "interrupt [-twice] MARKER CODE PROGRAM ARGS..."
// starts the program, waits until MARKER exists (a gate is running), sends SIGINT (twice with
// -twice), and asserts the exit code. Output goes to interrupt.stdout and interrupt.stderr.
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) {
	twice := len(args) > 0 && args[0] == "-twice"
	if twice {
		args = args[1:]
	}
	if neg || len(args) < 3 {
		ts.Fatalf("usage: interrupt [-twice] MARKER CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("interrupt: %v", err)
	}
	path, err := exec.LookPath(args[2])
	if err != nil {
		ts.Fatalf("interrupt: %v", err)
	}
	cmd := exec.Command(path, args[3:]...)
	cmd.Dir = ts.Getenv("WORK")
	for _, k := range []string{"PATH", "HOME", "WORK", "TMPDIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	stdout, _ := os.Create(ts.MkAbs("interrupt.stdout"))
	stderr, _ := os.Create(ts.MkAbs("interrupt.stderr"))
	defer stdout.Close()
	defer stderr.Close()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		ts.Fatalf("interrupt: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	marker := ts.MkAbs(args[0])
	for deadline := time.Now().Add(hangGuard(30 * time.Second)); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			ts.Fatalf("interrupt: %s did not appear within %s", args[0], hangGuard(30*time.Second))
		}
	}
	cmd.Process.Signal(os.Interrupt)
	if twice {
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(os.Interrupt)
	}
	select {
	case <-done:
	case <-time.After(hangGuard(30 * time.Second)):
		cmd.Process.Kill()
		<-done
		ts.Fatalf("interrupt: %s still running %s after SIGINT", args[2], hangGuard(30*time.Second))
	}
	if got := cmd.ProcessState.ExitCode(); got != want {
		ts.Fatalf("%s exited %d after SIGINT, want %d", args[2], got, want)
	}
}

// cmdHookCall runs a program with a stdin pipe that stays open, as an agent host may leave it:
// "hookcall [-payload FILE] CODE PROGRAM ARGS..." writes FILE (if any) and never closes stdin
// while the program runs. It asserts the exit code and saves hook.stdout and hook.stderr. A
// generous deadline turns a hang into a failure instead of a stuck test.
func cmdHookCall(ts *testscript.TestScript, neg bool, args []string) {
	var payload []byte
	if len(args) > 1 && args[0] == "-payload" {
		payload = []byte(ts.ReadFile(args[1]))
		args = args[2:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: hookcall [-payload FILE] CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("hookcall: %v", err)
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("hookcall: %v", err)
	}
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "WORK", "TMPDIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		ts.Fatalf("hookcall: %v", err)
	}
	defer stdin.Close()
	stdout, _ := os.Create(ts.MkAbs("hook.stdout"))
	stderr, _ := os.Create(ts.MkAbs("hook.stderr"))
	defer stdout.Close()
	defer stderr.Close()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		ts.Fatalf("hookcall: %v", err)
	}
	if len(payload) > 0 {
		stdin.Write(payload)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(hangGuard(30 * time.Second)):
		cmd.Process.Kill()
		<-done
		ts.Fatalf("hookcall: %s still running after %s with stdin open", args[1], hangGuard(30*time.Second))
	}
	if got := cmd.ProcessState.ExitCode(); got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// conformanceDir holds the JSON Schemas that Codex, the strictest host, validates replies with.
const conformanceDir = "../../internal/stophook/testdata/conformance/codex"

// cmdJSONSchema validates a stop-hook reply ("jsonschema [-subagent] FILE", FILE may be stdout)
// against the Codex Stop (or SubagentStop) output schema. An empty reply is valid: it is the
// "allow" of every host that accepts silence.
func cmdJSONSchema(ts *testscript.TestScript, neg bool, args []string) {
	schema := "stop.command.output.schema.json"
	if len(args) > 0 && args[0] == "-subagent" {
		schema = "subagent-stop.command.output.schema.json"
		args = args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: jsonschema [-subagent] FILE")
	}
	reply := strings.TrimSpace(ts.ReadFile(args[0]))
	if reply == "" {
		return
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join(conformanceDir, schema))
	if err != nil {
		ts.Fatalf("jsonschema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(reply))
	if err != nil {
		ts.Fatalf("jsonschema: reply is not JSON: %v", err)
	}
	err = sch.Validate(doc)
	if (err == nil) == neg {
		ts.Fatalf("jsonschema %s: %v", schema, err)
	}
}

// cmdMaxBytes asserts that FILE is at most N bytes long ("maxbytes FILE N").
func cmdMaxBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: maxbytes FILE N")
	}
	limit, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("maxbytes: %v", err)
	}
	if n := len(ts.ReadFile(args[0])); n > limit {
		ts.Fatalf("%s is %d bytes, more than %d", args[0], n, limit)
	}
}
