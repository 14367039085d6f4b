package stophook

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/fix"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxFixedNoteBytes bounds the note naming what the fixers changed; the gates' own sections
// need the room more.
const maxFixedNoteBytes = 1500

// autofix runs, with stop_hook.autofix, the fixers of the gates that failed and have one,
// before the block is composed: the reason then names every file they changed, so that the
// agent reviews the changes rather than finding them later. Nothing runs in a dry run.
func (c *call) autofix(ctx context.Context, cfg *config.Config, run *engine.Run, grace time.Duration) {
	if !cfg.StopHook.Autofix || c.DryRun || run.Verdict != gates.VerdictFail {
		return
	}
	failed := only(run.Results, gates.StatusFail)
	var gs []gates.Gate
	for _, g := range cfg.Gates {
		if g.Fix != "" && slices.ContainsFunc(failed, func(r gates.Result) bool { return r.Name == g.Name }) {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return
	}
	c.fixed = fix.Run(ctx, gs, fix.Options{
		RunID:    run.ID,
		Root:     cfg.Root,
		Env:      c.Environ,
		ExtraEnv: c.gateEnv(),
		Grace:    grace,
	})
}

// withFixed puts, under the reason's first line, what the fixers did: whose fixers ran and every
// file they changed. The failures above them were found before the fixers ran.
func withFixed(reason string, fixed []fix.Result) string {
	if len(fixed) == 0 {
		return reason
	}
	header, rest, _ := strings.Cut(reason, "\n")
	return capReason(header+"\n"+fixedNote(fixed)+"\n"+rest, MaxReasonBytes)
}

func fixedNote(fixed []fix.Result) string {
	ran, files, odd, unknown := fixersSaid(fixed)
	var b strings.Builder
	fmt.Fprintf(&b, "autofix: gauntlet ran the fixers of %s before replying; ", strings.Join(ran, ", "))
	switch {
	case len(files) > 0:
		fmt.Fprintf(&b, "they changed %s: %s. Review these changes; the failures below were found before them, so stop again to have them judged anew.",
			termtext.Count(len(files), "file"), strings.Join(files, ", "))
	case unknown:
		b.WriteString("which files they changed cannot be told outside a git work tree.")
	default:
		b.WriteString("they changed no file.")
	}
	if len(odd) > 0 {
		fmt.Fprintf(&b, " Could not run: %s.", strings.Join(odd, ", "))
	}
	return termtext.Cap(b.String(), maxFixedNoteBytes)
}

// fixersSaid gathers what the fixers did: which ran, the files they changed (each once), those
// that could not run (with why), and whether any could not tell which files it changed.
func fixersSaid(fixed []fix.Result) (ran, files, odd []string, unknown bool) {
	for _, f := range fixed {
		ran = append(ran, termtext.Line(f.Gate))
		for _, p := range f.Changed {
			if p = termtext.Line(p); !slices.Contains(files, p) {
				files = append(files, p)
			}
		}
		unknown = unknown || !f.Known
		if f.Status == gates.StatusError || f.Status == gates.StatusCancelled {
			odd = append(odd, fmt.Sprintf("%s (%s)", termtext.Line(f.Gate), termtext.Line(f.Reason)))
		}
	}
	return ran, files, odd, unknown
}
