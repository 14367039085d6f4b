package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

const testLogPrefix = ".gauntlet/logs/test-run"

// testOptions returns options for a run in a fresh project root with a log directory.
func testOptions(t *testing.T) Options {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	logDir := filepath.Join(root, filepath.FromSlash(testLogPrefix))
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	logs, err := os.OpenRoot(logDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logs.Close() })
	return Options{
		RunID:     "test-run-" + strings.ReplaceAll(t.Name(), "/", "-"),
		Root:      root,
		Logs:      logs,
		LogPrefix: testLogPrefix,
		Jobs:      4,
		Grace:     300 * time.Millisecond,
	}
}

// shellGate is a check gate running script with `sh -c`.
func shellGate(name, script string) gates.Gate {
	return gates.Gate{
		Name:      name,
		Kind:      gates.KindCheck,
		Run:       script,
		Timeout:   time.Minute,
		Severity:  gates.SeverityError,
		OnTimeout: gates.StatusFail,
		Enabled:   true,
	}
}

func readLog(t *testing.T, opts Options, gate string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(opts.Root, filepath.FromSlash(testLogPrefix), gate+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readPid waits for a gate to write a pid into file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(hangGuard(20 * time.Second))
	for {
		b, err := os.ReadFile(file)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file %s: %v", file, err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// assertGone fails unless pid is dead, allowing a moment for the orphan to be reaped (a moment
// that a loaded machine stretches).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard(10 * time.Second))
	for processAlive(pid) {
		if time.Now().After(deadline) {
			testos.Kill(pid)
			t.Fatalf("process %d survived the run", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processAlive treats a zombie as dead: it runs no code, and whether it is reaped depends on the
// machine's init, not on gauntlet.
func processAlive(pid int) bool { return testos.Alive(pid) }

// runWithin runs the gates and fails the test when Run does not return within limit: a hang is
// the defect these tests look for, not a slow machine.
func runWithin(t *testing.T, limit time.Duration, run func() []gates.Result) []gates.Result {
	t.Helper()
	limit = hangGuard(limit)
	done := make(chan []gates.Result, 1)
	go func() { done <- run() }()
	select {
	case res := <-done:
		return res
	case <-time.After(limit):
		t.Fatalf("Run did not return within %s", limit)
		return nil
	}
}

// hangGuard scales a hang guard for the race detector. Guards are several times what an honest
// run takes on a loaded machine: they catch hangs, never slowness.
func hangGuard(d time.Duration) time.Duration { return d * raceFactor }

// recorder is an Observer that keeps everything it is told.
type recorder struct {
	mu         sync.Mutex
	started    []string
	finished   []gates.Result
	lines      map[string][]string
	running    int
	maxRunning int
	onStart    func(g gates.Gate)
	onLine     func(gate, line string)
}

func (r *recorder) Started(g gates.Gate, _ time.Time) {
	r.mu.Lock()
	r.started = append(r.started, g.Name)
	r.running++
	r.maxRunning = max(r.maxRunning, r.running)
	onStart := r.onStart
	r.mu.Unlock()
	if onStart != nil {
		onStart(g)
	}
}

func (r *recorder) Output(gate string, line []byte) {
	r.mu.Lock()
	if r.lines == nil {
		r.lines = map[string][]string{}
	}
	r.lines[gate] = append(r.lines[gate], string(line))
	onLine := r.onLine
	r.mu.Unlock()
	if onLine != nil {
		onLine(gate, string(line))
	}
}

func (r *recorder) Finished(res gates.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !res.Started.IsZero() {
		r.running--
	}
	r.finished = append(r.finished, res)
}

func byName(results []gates.Result) map[string]gates.Result {
	m := make(map[string]gates.Result, len(results))
	for _, r := range results {
		m[r.Name] = r
	}
	return m
}
