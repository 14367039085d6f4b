package runner

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Not parallel: the goroutine count must not move because of other tests.
func TestRunLeavesNoGoroutines(t *testing.T) {
	opts := testOptions(t)
	opts.Jobs = 2
	opts.FailFast = true
	timeout := shellGate("times-out", "trap '' TERM; sleep 1000")
	timeout.Timeout = 200 * time.Millisecond
	gs := []gates.Gate{
		shellGate("child", "sleep 1000 & echo hi"),
		timeout,
		shellGate("fails", "sleep 0.5; exit 1"),
		shellGate("cancelled", "sleep 1000"),
		shellGate("never", "true"),
	}
	before := runtime.NumGoroutine()
	Run(context.Background(), gs, opts)
	// A goroutine that has just signalled its end may still be on its way out, slowly on a
	// loaded machine; one that never ends is the defect.
	deadline := time.Now().Add(hangGuard(10 * time.Second))
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before Run, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
