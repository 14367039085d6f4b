//go:build !windows

package covshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// TestMain lets the tests start this binary as the shim: a tool the shim passes on replaces its
// process, which a test cannot do in its own.
func TestMain(m *testing.M) {
	if os.Getenv("COVSHIM_AS_SHIM") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(testos.RunWithUserState(m))
}

// script writes an executable shell script named name in dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// shims are the two shims: gauntlet's binary (this test binary as it, where there is no POSIX
// shell) and the sh script the flag carries elsewhere. Each runs the shim with args, and gives
// what it printed and its exit status.
var shims = map[string]func(t *testing.T, args ...string) (string, int){
	"binary": func(t *testing.T, args ...string) (string, int) {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), "COVSHIM_AS_SHIM=1")
		return run(t, cmd)
	},
	"sh": func(t *testing.T, args ...string) (string, int) {
		return run(t, exec.Command("/bin/sh", append([]string{"-c", shScript, "gauntlet-covdata-shim"}, args...)...))
	},
}

func run(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestGoToolCovdataRunsCovdataItself(t *testing.T) {
	for name, shim := range shims {
		t.Run(name, func(t *testing.T) { goToolCovdataRunsCovdataItself(t, shim) })
	}
}

func goToolCovdataRunsCovdataItself(t *testing.T, shim func(*testing.T, ...string) (string, int)) {
	dir := t.TempDir()
	covdata := script(t, dir, "covdata", `echo "covdata $*"`)
	goCmd := script(t, dir, "go", `echo "go $*"`)
	out, code := shim(t, covdata, goCmd, "tool", "covdata", "percent", "-i", "/w/b1")
	if code != 0 || out != "covdata percent -i /w/b1\n" {
		t.Fatalf("shim printed %q, exit %d; want covdata's own line", out, code)
	}
}

func TestFailingCovdataLeavesItToGo(t *testing.T) {
	for name, shim := range shims {
		t.Run(name, func(t *testing.T) { failingCovdataLeavesItToGo(t, shim) })
	}
}

func failingCovdataLeavesItToGo(t *testing.T, shim func(*testing.T, ...string) (string, int)) {
	dir := t.TempDir()
	covdata := script(t, dir, "covdata", `echo "half a line"; exit 3`)
	goCmd := script(t, dir, "go", `echo "go $*"`)
	out, code := shim(t, covdata, goCmd, "tool", "covdata", "textfmt", "-i", "d", "-o", "f")
	if code != 0 || out != "go tool covdata textfmt -i d -o f\n" {
		t.Fatalf("shim printed %q, exit %d; want go's command alone, covdata's output dropped", out, code)
	}
	missing := filepath.Join(dir, "gone")
	if out, code := shim(t, missing, goCmd, "tool", "covdata", "percent"); code != 0 || out != "go tool covdata percent\n" {
		t.Fatalf("covdata missing: shim printed %q, exit %d", out, code)
	}
}

func TestOtherToolsRunAsGoStartedThem(t *testing.T) {
	for name, shim := range shims {
		t.Run(name, func(t *testing.T) { otherToolsRunAsGoStartedThem(t, shim, name) })
	}
}

func otherToolsRunAsGoStartedThem(t *testing.T, shim func(*testing.T, ...string) (string, int), name string) {
	dir := t.TempDir()
	covdata := script(t, dir, "covdata", `echo covdata; exit 9`)
	compile := script(t, dir, "compile", `echo "compile $*"; exit 4`)
	out, code := shim(t, covdata, compile, "-V=full")
	if code != 4 || out != "compile -V=full\n" {
		t.Fatalf("shim printed %q, exit %d; want the tool's output and its exit status", out, code)
	}
	// A program named go that is not given as go's full path, or not for covdata, is a tool.
	goCmd := script(t, dir, "go", `echo "go $*"`)
	if out, _ := shim(t, covdata, goCmd, "tool", "cover", "-V=full"); out != "go tool cover -V=full\n" {
		t.Fatalf("go tool cover: shim printed %q", out)
	}
	if name != "binary" {
		return
	}
	if out, code := shim(t, covdata); code != 2 || !strings.Contains(out, "covdata's path and a command") {
		t.Fatalf("no command: %q, exit %d", out, code)
	}
}

func TestFlagQuotesAsGoSplits(t *testing.T) {
	self.Store(nil)
	t.Cleanup(func() { self.Store(nil) })
	if got := flagFor("", "/c/covdata"); got != "" {
		t.Fatalf("the binary's flag before Enable = %q, want none", got)
	}
	for _, tc := range []struct{ self, covdata, want string }{
		{"/bin/gauntlet", "/c/covdata", "-toolexec=/bin/gauntlet " + Command + " /c/covdata"},
		{"/my bin/gauntlet", "/c/covdata", "-toolexec='/my bin/gauntlet' " + Command + " /c/covdata"},
		{"/it's/gauntlet", "/c d/covdata", `-toolexec="/it's/gauntlet" ` + Command + " '/c d/covdata'"},
		{`/it's "x"/gauntlet`, "/c/covdata", ""},
		{"", "/c/covdata", ""},
		{"/bin/gauntlet", "", ""},
	} {
		Enable(func() string { return tc.self })
		if got := flagFor("", tc.covdata); got != tc.want {
			t.Errorf("flag(%q) as %q = %q, want %q", tc.covdata, tc.self, got, tc.want)
		}
	}
	// With a shell the flag carries the sh script, quoted whole, and needs no Enable.
	self.Store(nil)
	want := "-toolexec=/bin/sh -c '" + shScript + "' gauntlet-covdata-shim '/c d/covdata'"
	if got := flagFor("/bin/sh", "/c d/covdata"); got != want {
		t.Errorf("sh flag = %q, want %q", got, want)
	}
	if strings.Contains(shScript, "'") {
		t.Error("the sh script holds a single quote: the flag cannot quote it")
	}
}

func TestCovdataIsRememberedUnderWhatDecidesIt(t *testing.T) {
	dir := t.TempDir()
	goCmd := script(t, dir, "go", "exit 0")
	covdata := script(t, dir, "covdata", "exit 0")
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)
	asked := 0
	resolve := func() string { asked++; return covdata }
	env := []string{"PATH=/bin", "GOFLAGS=-mod=mod"}
	for i := 0; i < 2; i++ {
		if got := Covdata(goCmd, dir, env, resolve); got != covdata {
			t.Fatalf("Covdata = %q, want %q", got, covdata)
		}
	}
	if asked != 1 {
		t.Fatalf("go was asked %d times for the same go, environment and go.mod, want once", asked)
	}
	// What decides go's toolchain changed: asked again.
	Covdata(goCmd, dir, append(env, "GOTOOLCHAIN=go1.99.0"), resolve)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n\ntoolchain go1.99.0\n"), 0o644)
	Covdata(goCmd, dir, env, resolve)
	if asked != 3 {
		t.Fatalf("asked %d times after GOTOOLCHAIN and go.mod changed, want 3", asked)
	}
	// A remembered covdata that is gone is asked for again.
	os.Remove(covdata)
	Covdata(goCmd, dir, env, resolve)
	if asked != 4 {
		t.Fatalf("asked %d times after covdata was removed, want 4", asked)
	}
}

func TestCovdataMemoEditedIsNotBelieved(t *testing.T) {
	dir := t.TempDir()
	goCmd := script(t, dir, "go", "exit 0")
	covdata := script(t, dir, "covdata", "exit 0")
	forged := script(t, dir, "forged", "exit 0")
	resolve := func() string { return covdata }
	Covdata(goCmd, dir, nil, resolve)
	state, err := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "gauntlet"))
	if err != nil {
		t.Fatal(err)
	}
	memo := ""
	for _, e := range state {
		if e.Name() == memoFile {
			memo = filepath.Join(os.Getenv("XDG_STATE_HOME"), "gauntlet", e.Name())
		}
	}
	if memo == "" {
		t.Fatalf("no memo written in %v", state)
	}
	data, _ := os.ReadFile(memo)
	os.WriteFile(memo, []byte(strings.ReplaceAll(string(data), covdata, forged)), 0o600)
	if got := Covdata(goCmd, dir, nil, resolve); got != covdata {
		t.Fatalf("after the memo was edited Covdata = %q, want go's answer %q", got, covdata)
	}
}
