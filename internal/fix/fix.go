// Package fix runs the fixers of gates (their `fix` commands, the writing form of the tool the
// gate checks with) one after the other, and names the files each one changed by comparing the
// work tree before and after it.
package fix

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// Options are what the fixers run with.
type Options struct {
	RunID string
	// Root is the absolute project root; a gate's Dir is relative to it.
	Root string
	// Env is the base environment, ExtraEnv what goes after each gate's own (see runner.Options).
	Env, ExtraEnv []string
	Grace         time.Duration
	Observer      runner.Observer
	Abort         <-chan struct{}
}

// Result is what one fixer did.
type Result struct {
	Gate    string
	Command string
	// Status is pass when the fixer exited 0. A fixer that leaves problems it cannot repair
	// often exits non-zero (eslint --fix): the gate run after it is what judges.
	Status gates.Status
	Reason string
	Tail   string
	// Changed are the files the fixer changed, in path order. Known says whether they could be
	// told at all (they cannot outside a git work tree).
	Changed []string
	Known   bool
}

// Run runs the fixer of each gate of gs that has one, in order, one at a time: two fixers
// writing the same file at once would undo each other. Gates without a fixer are passed over.
func Run(ctx context.Context, gs []gates.Gate, opts Options) []Result {
	var out []Result
	before, known := capture(ctx, opts.Root)
	for _, g := range gs {
		if g.Fix == "" {
			continue
		}
		res := runner.Run(ctx, []gates.Gate{fixerOf(g)}, runner.Options{
			RunID:    opts.RunID,
			Root:     opts.Root,
			Jobs:     1,
			Env:      opts.Env,
			ExtraEnv: opts.ExtraEnv,
			Grace:    opts.Grace,
			Observer: opts.Observer,
			Abort:    opts.Abort,
		})[0]
		r := Result{Gate: g.Name, Command: g.Fix, Status: res.Status, Reason: res.Reason, Tail: res.Tail}
		after, ok := capture(ctx, opts.Root)
		if known && ok {
			r.Changed, r.Known = before.Changed(after), true
		}
		before, known = after, ok
		out = append(out, r)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

// fixerOf is the gate's fixer as the runner runs a check: the gate's directory, environment
// and timeout, its own process group, no reading of its output for findings or causes.
func fixerOf(g gates.Gate) gates.Gate {
	return gates.Gate{
		Name:      g.Name,
		Kind:      gates.KindCheck,
		Run:       g.Fix,
		Dir:       g.Dir,
		Env:       g.Env,
		Timeout:   g.Timeout,
		Severity:  gates.SeverityError,
		OnTimeout: gates.StatusFail,
		When:      gates.WhenAlways,
		Enabled:   true,
	}
}

// capture reads the work tree; ok is false when it cannot be read (outside git).
func capture(ctx context.Context, root string) (snapshot.State, bool) {
	tree, err := snapshot.New(root, snapshot.Options{}).Tree(ctx)
	if err != nil {
		return nil, false
	}
	s, err := snapshot.Capture(ctx, tree)
	return s, err == nil
}

// Fixable returns the gates of gs that have a fixer, and an error naming those asked for by
// name that have none.
func Fixable(gs []gates.Gate) ([]gates.Gate, error) {
	var out []gates.Gate
	var without []string
	for _, g := range gs {
		if g.Fix == "" {
			without = append(without, g.Name)
			continue
		}
		out = append(out, g)
	}
	if len(without) > 0 {
		return out, errors.New(noFixer(without))
	}
	return out, nil
}

func noFixer(names []string) string {
	if len(names) == 1 {
		return fmt.Sprintf("gate %s has no fix (add `fix:` with the command that repairs what it finds)", names[0])
	}
	return fmt.Sprintf("gates %s have no fix (add `fix:` with the command that repairs what each finds)", strings.Join(names, ", "))
}
