package runner

import (
	"context"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// runGate takes one gate from start to result; nothing that goes wrong inside it stops the run.
func (r *run) runGate(g gates.Gate) gates.Result {
	start := time.Now()
	ctx, cancel := r.gateContext(g)
	defer cancel()
	o, tail, logPath := r.execute(ctx, g, start)
	res := r.result(ctx, g, o, start, tail, logPath)
	res.Duration = time.Since(start)
	if r.opts.FailFast && res.Status == gates.StatusFail {
		r.failFast(g.Name)
	}
	r.finished(&res)
	return res
}

// failFast stops the other gates after the first failure, at once or after FailGrace.
func (r *run) failFast(gate string) {
	r.failOnce.Do(func() {
		stop := func() { r.cancel(&failFastError{gate: gate}) }
		if r.opts.FailGrace <= 0 {
			stop()
			return
		}
		r.failTimer = time.AfterFunc(r.opts.FailGrace, stop)
	})
}

// gateContext gives the gate its own timeout, with a cause that tells it apart from the run's.
func (r *run) gateContext(g gates.Gate) (context.Context, context.CancelFunc) {
	base := r.baseContext(g)
	if g.Timeout > 0 {
		return context.WithTimeoutCause(base, g.Timeout, errGateTimeout)
	}
	return context.WithCancel(base)
}

// baseContext is what a started gate's run ends with: fail-fast too, unless FinishStarted lets
// it finish.
func (r *run) baseContext(g gates.Gate) context.Context {
	if r.opts.FailFast && r.opts.FinishStarted != nil && r.opts.FinishStarted(g) {
		return r.kept
	}
	return r.ctx
}

// execute runs g with its output captured. A panic anywhere in it becomes the gate's internal
// error, after the capture is closed.
func (r *run) execute(ctx context.Context, g gates.Gate, start time.Time) (o gates.Outcome, tail, logPath string) {
	defer func() {
		if p := recover(); p != nil {
			o = gates.Outcome{ExitCode: -1, Internal: fmt.Errorf("panic while running gate %s: %v", g.Name, p)}
		}
	}()
	r.observer.Started(g, start)
	out, logPath, err := r.openCapture(g)
	if err != nil {
		return gates.Outcome{ExitCode: -1, Internal: err}, "", ""
	}
	defer func() {
		if err := out.Close(); err != nil && o.Internal == nil {
			o.CaptureErr = err
		}
		if o.InfraMatch == "" {
			o.InfraMatch = out.InfraMatch()
		}
		out.finish(&o)
		out.settle(r.baseContext(g), &o)
		tail = out.Tail()
		if o.TimedOut {
			o.LastLine = lastLine(tail)
		}
		if !out.logged() {
			logPath = "" // it printed nothing: no log file to point to
		}
	}()
	return r.dispatch(ctx, g, out), "", logPath
}

// dispatch runs g by its kind: check is the runner's own; every other kind is the one the
// caller registered in Options.Kinds.
func (r *run) dispatch(ctx context.Context, g gates.Gate, out io.Writer) gates.Outcome {
	gr := &GateRun{Gate: g, Out: out, Root: r.opts.Root, r: r}
	if g.Kind == gates.KindCheck || g.Kind == "" {
		return runCheck(ctx, gr)
	}
	k := r.opts.Kinds[g.Kind]
	if k == nil {
		return unsupported(g.Kind)
	}
	return k.Run(ctx, gr)
}

// openCapture prepares the gate's output sinks and returns the log path for the report.
func (r *run) openCapture(g gates.Gate) (*capture, string, error) {
	var readers []OutputReader
	if r.opts.Readers != nil {
		readers = r.opts.Readers(g)
	}
	if r.logs == nil {
		c := newCapture(g.Name, nil, r.observer, g.InfraPatterns)
		c.readers = readers
		return c, "", nil
	}
	name := g.Name + ".log"
	c := newCapture(g.Name, nil, r.observer, g.InfraPatterns)
	c.openLog = func() (*cappedLog, error) {
		dir, err := r.logs()
		if err != nil {
			return nil, fmt.Errorf("log of gate %s: %w", g.Name, err)
		}
		log, err := createCappedLog(dir, name, r.opts.MaxLogBytes)
		if err != nil {
			return nil, fmt.Errorf("log of gate %s: %w", g.Name, err)
		}
		return log, nil
	}
	c.readers = readers
	return c, path.Join(r.opts.LogPrefix, name), nil
}

// notStarted is the result of a gate the run was cancelled before reaching.
func (r *run) notStarted(g gates.Gate) gates.Result {
	o := gates.Outcome{ExitCode: -1, Cancelled: true}
	res := r.result(r.ctx, g, o, time.Time{}, "", "")
	r.finished(&res)
	return res
}

func (r *run) result(ctx context.Context, g gates.Gate, o gates.Outcome, start time.Time, tail, logPath string) gates.Result {
	status, reason := gates.Classify(g, o)
	if why := r.stopReason(ctx, o); why != "" {
		reason = why
	}
	return gates.Result{
		Name:     g.Name,
		Kind:     g.Kind,
		Status:   status,
		ExitCode: o.ExitCode,
		TimedOut: o.TimedOut,
		Log:      logPath,
		Reason:   reason,
		Tail:     tail,
		Hint:     g.Hint,
		Command:  g.Command(),
		Started:  start,
		Findings: o.Findings,
		Cause:    o.Cause,
		Lines:    o.Lines,
		Excerpt:  o.Excerpt,
	}
}

// finished tells the observer; a panic there turns the result into gauntlet's own error.
func (r *run) finished(res *gates.Result) {
	defer func() {
		if p := recover(); p != nil {
			res.Status = gates.StatusError
			res.Reason = fmt.Sprintf("gauntlet error: observer panicked: %v", p)
		}
	}()
	r.observer.Finished(*res)
}

// maxLastLine bounds the last line a timeout's reason quotes.
const maxLastLine = 200

// lastLine is the last line of a tail, cut short: what a gate stopped at its timeout was doing.
func lastLine(tail string) string {
	tail = strings.TrimSpace(tail)
	if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	return termtext.Short(strings.TrimSpace(tail), maxLastLine)
}
