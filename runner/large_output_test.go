package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

const largeOutputBytes = 64 << 20

// largeOutputGate prints many megabytes of short lines, then one last line.
func largeOutputGate() gates.Gate {
	return shellGate("large", "yes 'a line of gate output 0123456789' | head -c 67108864; echo; echo the end")
}

type lineCounter struct {
	silentObserver
	lines atomic.Int64
}

func (c *lineCounter) Output(string, []byte) { c.lines.Add(1) }

// Not parallel, so that other tests' allocations do not count.
func TestLargeOutputInBoundedMemory(t *testing.T) {
	opts := testOptions(t)
	counter := &lineCounter{}
	opts.Observer = counter

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := runWithin(t, 2*time.Minute, func() []gates.Result {
		return Run(context.Background(), []gates.Gate{largeOutputGate()}, opts)
	})[0]
	runtime.ReadMemStats(&after)

	if res.Status != gates.StatusPass || res.Tail == "" {
		t.Fatalf("got %s %q tail %q", res.Status, res.Reason, res.Tail)
	}
	// A runner that kept the output, or copied it once, allocates at least all of it; one that
	// streams it allocates a few hundred KiB. The bound sits far from both, so that the odd
	// allocation a loaded machine adds (16 MiB was seen once) is not taken for the defect.
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > largeOutputBytes/2 {
		t.Errorf("allocated %d bytes for %d bytes of output: the output is kept in memory", allocated, largeOutputBytes)
	}
	if want := int64(largeOutputBytes/35 + 2); counter.lines.Load() < want {
		t.Errorf("observer saw %d lines, want at least %d", counter.lines.Load(), want)
	}
	info, err := os.Stat(filepath.Join(opts.Root, testLogPrefix, "large.log"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() < DefaultMaxLogBytes || info.Size() > DefaultMaxLogBytes+100 {
		t.Errorf("log file is %d bytes, want the cap plus a marker", info.Size())
	}
	if got := readLog(t, opts, "large"); !strings.HasSuffix(got, "\nthe end\n") {
		t.Errorf("log does not end with the last output")
	}
}

func BenchmarkLargeOutput(b *testing.B) {
	root := b.TempDir()
	logs, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer logs.Close()
	opts := Options{RunID: "bench", Root: root, Logs: logs, LogPrefix: "logs", Jobs: 1, Observer: &lineCounter{}}
	gs := []gates.Gate{largeOutputGate()}
	b.SetBytes(largeOutputBytes)
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(context.Background(), gs, opts)[0]; res.Status != gates.StatusPass {
			b.Fatalf("got %s %q", res.Status, res.Reason)
		}
	}
}
