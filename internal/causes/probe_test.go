package causes

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

type fakeMachine struct {
	free    uint64
	diskErr error
	mem     []MemoryState // one per look; the last repeats
	looks   int
	refuse  []string
	dialed  []string
	now     time.Time
}

func (f *fakeMachine) DiskFree(string) (uint64, error) { return f.free, f.diskErr }
func (f *fakeMachine) Memory() (MemoryState, error) {
	m := f.mem[min(f.looks, len(f.mem)-1)]
	f.looks++
	return m, nil
}
func (f *fakeMachine) Dial(_ context.Context, network, addr string) error {
	f.dialed = append(f.dialed, network+" "+addr)
	if slices.Contains(f.refuse, addr) {
		return errors.New("connection refused")
	}
	return nil
}
func (f *fakeMachine) Now() time.Time { return f.now }

var nov2026 = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

func ample() *fakeMachine {
	return &fakeMachine{free: 41e9, mem: []MemoryState{{Available: 16e9, Total: 32e9}}, now: nov2026}
}

// settle runs a reader over output as the runner would, with machine as the environment.
func settle(t *testing.T, m *fakeMachine, opts Options, output string, exitCode int) gates.Outcome {
	t.Helper()
	saved := Machine
	Machine = m
	defer func() { Machine = saved }()
	r := NewReader(opts)
	for line := range strings.SplitSeq(output, "\n") {
		r.Line([]byte(line))
	}
	o := gates.Outcome{ExitCode: exitCode}
	r.Finish(&o)
	r.Settle(context.Background(), &o)
	return o
}

func TestDiskProbe(t *testing.T) {
	const out = "    store_test.go:41: write /tmp/fill: no space left on device"
	o := settle(t, ample(), Options{Root: "/w", Dir: "/w"}, out, 1)
	if o.Cause != nil || !strings.Contains(o.CauseRejected, "but 41 GB are free in /w and 41 GB in ") {
		t.Errorf("ample disk: cause %+v, rejected %q", o.Cause, o.CauseRejected)
	}
	full := ample()
	full.free = 200e6
	if o := settle(t, full, Options{Root: "/w"}, out, 1); o.Cause == nil || o.Cause.ID != "disk-full" {
		t.Errorf("full disk: %+v %q", o.Cause, o.CauseRejected)
	}
	broken := ample()
	broken.diskErr = errors.New("statfs: not supported")
	if o := settle(t, broken, Options{Root: "/w"}, out, 1); o.Cause != nil || !strings.Contains(o.CauseRejected, "could not be checked") {
		t.Errorf("a probe that cannot look must not excuse: %+v %q", o.Cause, o.CauseRejected)
	}
	// A gate that passed is never probed (nor given a cause).
	if o := settle(t, ample(), Options{}, out, 0); o.CauseRejected != "" {
		t.Errorf("a pass was probed: %q", o.CauseRejected)
	}
}

func TestMemoryProbe(t *testing.T) {
	const out = "fatal error: runtime: out of memory"
	o := settle(t, ample(), Options{}, out, 2)
	if o.Cause != nil || !strings.Contains(o.CauseRejected, "16 GB are available and no process was killed for memory") {
		t.Errorf("ample memory: %+v %q", o.Cause, o.CauseRejected)
	}
	low := ample()
	low.mem = []MemoryState{{Available: 100e6, Total: 32e9}}
	if o := settle(t, low, Options{}, out, 2); o.Cause == nil {
		t.Errorf("low memory: %q", o.CauseRejected)
	}
	killed := ample()
	killed.mem = []MemoryState{{Available: 16e9, OOMKills: 3}, {Available: 16e9, OOMKills: 4}}
	if o := settle(t, killed, Options{}, "signal: killed", 1); o.Cause == nil || o.Cause.ID != "oom-killed-child" {
		t.Errorf("a kill during the gate: %+v %q", o.Cause, o.CauseRejected)
	}
}

func TestNetworkProbe(t *testing.T) {
	const out = "npm error code ENOTFOUND\nnpm error network request to https://registry.example.com:8443/x failed, reason: getaddrinfo ENOTFOUND registry.example.com"
	m := ample()
	o := settle(t, m, Options{}, out, 1)
	if o.Cause != nil || !strings.Contains(o.CauseRejected, "accept connections") {
		t.Errorf("reachable: %+v %q", o.Cause, o.CauseRejected)
	}
	// The signature's first line names no host: its registry is dialled.
	if !slices.Contains(m.dialed, "tcp registry.npmjs.org:443") {
		t.Errorf("dialled %q", m.dialed)
	}
	// The same host is dialled once per process, whatever fails.
	dials.Clear()
	m = ample()
	m.refuse = []string{"registry.npmjs.org:443"}
	for range 3 {
		if o := settle(t, m, Options{}, out, 1); o.Cause == nil {
			t.Errorf("unreachable: %q", o.CauseRejected)
		}
	}
	if len(m.dialed) != 1 {
		t.Errorf("dialled %q, want one connection", m.dialed)
	}
	// Through a proxy, the proxy is what the tool could not reach.
	dials.Clear()
	m = ample()
	settle(t, m, Options{Env: []string{"HTTPS_PROXY=http://proxy.corp:3128"}}, out, 1)
	if !slices.Equal(m.dialed, []string{"tcp proxy.corp:3128"}) {
		t.Errorf("dialled %q, want the proxy", m.dialed)
	}
	dials.Clear()
}

func TestVersionsMustBeReleased(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{"go: go.mod requires go >= 1.99 (running go 1.26.8; GOTOOLCHAIN=local)", false},
		{"go: go.mod requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)", true},
		{"go: go.mod requires go >= 1.27.3 (running go 1.26.8; GOTOOLCHAIN=local)", true},
		{"go: go.mod requires go >= 1.22.99 (running go 1.21.0; GOTOOLCHAIN=local)", false},
		{"go: go.mod requires go >= 1.28rc1 (running go 1.26.8; GOTOOLCHAIN=local)", false},
		{"/w/go.mod:3: invalid go version '1.22.0': must match format 1.23", true},
		{"/w/go.mod:3: invalid go version '2.0': must match format 1.23", false},
		{"go: download go1.99.0 for linux/amd64: toolchain not available", false},
		// A minversion no pytest has: the project's typo (or an agent's edit), not the machine.
		{"ERROR: /p/pyproject.toml: 'minversion' requires pytest-99.0, actual pytest-7.2.1'", false},
		{"ERROR: /p/pyproject.toml: 'minversion' requires pytest-8.0, actual pytest-7.2.1'", true},
		{"pre-commit version 99.0.0 is required but version 3.0.4 is installed.", false},
		{"error: package `x v0.1.0` cannot be built because it requires rustc 1.150 or newer, while the currently active rustc version is 1.75.0", false},
		{"error: package `x v0.1.0` cannot be built because it requires rustc 1.90 or newer, while the currently active rustc version is 1.75.0", true},
		{"ERROR: Package 'p' requires a different Python: 3.11.7 not in '>=3.99'", false},
		{"ERROR: Package 'p' requires a different Python: 3.11.7 not in '>=3.13,<4'", false},
		{"ERROR: Package 'p' requires a different Python: 3.11.7 not in '>=3.13'", true},
		{`error x@1.0.0: The engine "node" is incompatible with this module. Expected version ">=99". Got "20.1.0"`, false},
		{`error x@1.0.0: The engine "node" is incompatible with this module. Expected version ">=24". Got "20.1.0"`, true},
		// golangci-lint names the go directive it cannot lint: go 1.99 is the project's typo.
		{"Error: can't load config: the Go language version (go1.26) used to build golangci-lint is lower than the targeted Go version (1.27.0)", true},
		{"Error: can't load config: the Go language version (go1.26) used to build golangci-lint is lower than the targeted Go version (1.99)", false},
	} {
		c := Match(tt.line, 1)
		if c == nil {
			t.Errorf("%q matches no signature", tt.line)
			continue
		}
		i := slices.IndexFunc(catalogue(), func(s Signature) bool { return s.ID == c.ID })
		v := probeVersion(nov2026, catalogue()[i], tt.line)
		if v.agree != tt.ok {
			t.Errorf("%q: agree %v (%s), want %v", tt.line, v.agree, v.why, tt.ok)
		}
	}
}

func TestCommandAndPathProbes(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755)
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "node_modules", ".bin", "vitest"), []byte("#!/bin/sh\n"), 0o755)
	opts := Options{Root: dir, Dir: filepath.Join(dir, "web"), Env: []string{"PATH=" + bin}}
	for _, tt := range []struct {
		out   string
		code  int
		agree bool
	}{
		{"sh: 1: go: not found", 127, false},
		{"sh: 1: cargo: not found", 127, true},
		{"sh: 1: vitest: not found", 127, false},
		{"sh: 1: jest: not found", 127, true},
		{"browserType.launch: Executable doesn't exist at " + filepath.Join(bin, "go"), 1, false},
		{"browserType.launch: Executable doesn't exist at /nowhere/ms-playwright/chrome", 1, true},
	} {
		o := settle(t, ample(), opts, tt.out, tt.code)
		if (o.Cause != nil) != tt.agree {
			t.Errorf("%q: cause %+v, rejected %q; want agree %v", tt.out, o.Cause, o.CauseRejected, tt.agree)
		}
	}
}

// Node.js stops at V8's heap limit (--max-old-space-size) however much memory the machine has
// free: the memory probe must not call that the gate's own failure. Whether the change made the
// heap grow is for the base to say at the stop.
func TestHeapLimitIsNotTheMachinesMemory(t *testing.T) {
	o := settle(t, ample(), Options{}, readTestdata(t, "node-heap-out-of-memory.txt"), 134)
	if o.Cause == nil || o.Cause.ID != "node-heap-out-of-memory" || o.CauseRejected != "" {
		t.Fatalf("16 GB free: cause %+v, rejected %q", o.Cause, o.CauseRejected)
	}
	if !strings.Contains(o.Cause.Fix, "NODE_OPTIONS=--max-old-space-size=") || !strings.Contains(o.Cause.Summary, "heap limit") {
		t.Errorf("summary %q, fix %q: want the heap limit and how to raise it", o.Cause.Summary, o.Cause.Fix)
	}
	// Older Node.js words the same give-up differently, and a task runner prefixes the line.
	for _, line := range []string{
		"FATAL ERROR: CALL_AND_RETRY_LAST Allocation failed - JavaScript heap out of memory",
		"web:build: FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory",
	} {
		if c := Match(line, 134); c == nil || c.ID != "node-heap-out-of-memory" {
			t.Errorf("%q: cause %+v", line, c)
		}
	}
	// A test that only says the words (an assertion on an error message) is no V8 report.
	if c := Match(`    expect(received).toBe(expected) // "JavaScript heap out of memory"`, 1); c != nil {
		t.Errorf("matched %s on %q", c.ID, c.Line)
	}
}

// A later signature whose probe agrees names the cause when the first one's does not.
func TestSettleTriesEveryMatchedSignature(t *testing.T) {
	m := ample()
	m.mem = []MemoryState{{Available: 100e6}}
	o := settle(t, m, Options{}, "write x: no space left on device\nfatal error: runtime: out of memory", 2)
	if o.Cause == nil || o.Cause.ID != "go-out-of-memory" || o.CauseRejected != "" {
		t.Errorf("cause %+v, rejected %q", o.Cause, o.CauseRejected)
	}
}

// Every entry either names a probe or is on this list, each for a reason: the text is only ever
// printed by the tool about its own setup, and checking it would mean running the tool again.
func TestEveryEntryIsProbedOrListed(t *testing.T) {
	unprobed := []string{
		"cargo-offline-missing-dependency", // cargo's own report of its --offline mode
		"go-module-lookup-disabled",        // go's own report of GOPROXY=off
		"playwright-host-deps-missing",     // Playwright's boxed report of missing system libraries
		"cypress-server-not-running",       // the baseUrl is not on the line
		"file-watchers-exhausted",          // inotify use is per user, not readable cheaply
		"pnpm-version-switch-refused",      // pnpm's own refusal of a download it could not verify
		"golangci-lint-timeout",            // golangci-lint's own --timeout: the load it ran under is gone
		"node-heap-out-of-memory",          // V8's own heap limit, which free memory says nothing about
		"pytest-plugin-missing",            // pytest's own usage error for a well-known plugin's option
	}
	for _, s := range catalogue() {
		if (s.Probe == "") != slices.Contains(unprobed, s.ID) {
			t.Errorf("%s: probe %q; every entry names a probe unless it is listed here", s.ID, s.Probe)
		}
	}
}
