package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A gate whose {files} do not fit one command line runs as several commands, one per batch
// (internal/filesarg): side by side, at most Jobs at once, as one gate. Each batch's output is
// held in a file of its own while it runs (memory does not grow with it) and passed on whole,
// batch after batch, once all have ended: its findings read as one gate's, never interleaved.

// maxBatchOutput bounds what is kept of one batch's output; the rest is dropped with a line
// saying so (the gate's log has its own cap).
const maxBatchOutput = 16 << 20

// batchExit is one batch's end.
type batchExit struct {
	exit Exit
	err  error
	out  *os.File
}

// executeBatches runs each batch's process and returns the gate's exit: interrupted if any batch
// was, else the first exit code that is not zero, in batch order; err is the first batch's error.
func executeBatches(ctx context.Context, g *GateRun, batches []gates.Gate, out io.Writer) (Exit, error) {
	ends := make([]batchExit, len(batches))
	sem := make(chan struct{}, max(1, min(g.r.opts.Jobs, len(batches))))
	var wg sync.WaitGroup
	for i, b := range batches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ends[i] = executeBatch(ctx, g, b, i+1)
		}()
	}
	wg.Wait()
	var exit Exit
	var err error
	for i, e := range ends {
		if e.out != nil {
			copyBatchOutput(out, e.out, i, len(batches))
		}
		err = cmpOr(err, e.err)
		exit.Interrupted = exit.Interrupted || e.exit.Interrupted
		if exit.Code == 0 && e.exit.Code != 0 {
			exit.Code = e.exit.Code
		}
		if exit.Signal == nil {
			exit.Signal = e.exit.Signal
		}
	}
	return exit, err
}

// executeBatch runs batch n with its output in a temporary file. Its processes carry a mark of
// their own beside the gate's: the reaping of one batch's leftovers (processes marked with the
// gate that outlived it) must never take another batch's, which carry the gate's marks too.
func executeBatch(ctx context.Context, g *GateRun, b gates.Gate, n int) batchExit {
	argv, err := checkArgv(b)
	if err != nil {
		return batchExit{exit: Exit{Code: -1}, err: &StartError{Err: err}}
	}
	f, err := os.CreateTemp("", "gauntlet-batch-*.out")
	if err != nil {
		return batchExit{exit: Exit{Code: -1}, err: fmt.Errorf("output of a batch of gate %s: %w", b.Name, err)}
	}
	// Gone from the directory while open, where the system allows it (Unix): nothing is left
	// behind whatever happens; elsewhere it is removed once read.
	_ = os.Remove(f.Name())
	w := &cappedWriter{w: f, left: maxBatchOutput}
	mark := fmt.Sprintf("GAUNTLET_BATCH=%d", n)
	p := Process{Argv: argv, Dir: g.Dir(), Env: append(g.Env(), mark)}
	p.Marks = append(gateMarks(g.Gate, g.r.opts.RunID), mark)
	exit, err := g.r.executor.Execute(ctx, p, w)
	if w.dropped {
		fmt.Fprintf(f, "\n[gauntlet: this batch printed more than %d MiB; the rest was dropped]\n", maxBatchOutput>>20)
	}
	return batchExit{exit: exit, err: err, out: f}
}

// copyBatchOutput passes a batch's output on and closes its file.
func copyBatchOutput(out io.Writer, f *os.File, i, n int) {
	defer func() {
		f.Close()
		_ = os.Remove(f.Name())
	}()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		fmt.Fprintf(out, "[gauntlet: the output of batch %d of %d could not be read: %v]\n", i+1, n, err)
		return
	}
	_, _ = io.Copy(out, f)
}

// cappedWriter keeps at most left bytes and drops the rest, saying so.
type cappedWriter struct {
	w       io.Writer
	left    int64
	dropped bool
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	n := len(p)
	if int64(len(p)) > c.left {
		p, c.dropped = p[:c.left], true
	}
	if len(p) > 0 {
		if _, err := c.w.Write(p); err != nil {
			return 0, err
		}
		c.left -= int64(len(p))
	}
	return n, nil
}

// cmpOr is the first error that is set.
func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
