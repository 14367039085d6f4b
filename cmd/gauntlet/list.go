package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/findings"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

type listOptions struct {
	IO         *IOStreams
	color      string
	configFile string
	json       bool
	base       string
	all        bool
}

// listedGate is one element of `gauntlet list --json`. Fields are only ever added.
type listedGate struct {
	Name     string         `json:"name"`
	Kind     gates.Kind     `json:"kind"`
	Run      bool           `json:"run"`
	Reason   string         `json:"reason"`
	Command  string         `json:"command,omitempty"`
	CLI      string         `json:"cli,omitempty"`
	Paths    []string       `json:"paths"`
	Exclude  []string       `json:"exclude"`
	Severity gates.Severity `json:"severity"`
	When     gates.When     `json:"when"`
	Enabled  bool           `json:"enabled"`
	// Format names the parsers that read the gate's findings, as set or detected from the command.
	Format  []string `json:"format,omitempty"`
	NewOnly bool     `json:"new_only,omitempty"`
	// Needs are the gates and setup steps this gate waits for: the edges of the graph.
	Needs []string `json:"needs,omitempty"`
}

func newListCmd(ios *IOStreams, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the gates and whether each would run for the current change",
		Long: `List the gates of the config, in order, with their kind, whether ` + "`gauntlet run`" + ` would run
each of them now, and why: scoping by paths against the current change, when, enabled.

Change scoping applies only to gates with paths: such a gate runs when a file changed against
the base (commits since the merge-base, staged, unstaged and untracked files) matches them. A
gate without paths runs on every call, and so does every gate outside git or with --all. The
last lines say which gates are scoped.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if err := checkColor(opts.color); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return listGates(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	addColorFlag(f, &opts.color)
	f.StringVarP(&opts.configFile, "config", "c", "", "use this config file instead of searching for .gauntlet.yml")
	f.BoolVar(&opts.json, "json", false, "print a JSON array instead of a table")
	f.StringVar(&opts.base, "base", "", "base ref for change scoping (default: the config's base, else auto)")
	f.BoolVar(&opts.all, "all", false, "ignore paths scoping, as run --all does")
	return cmd
}

func listGates(ctx context.Context, opts *listOptions) error {
	ios := opts.IO
	cfg, err := loadConfig(ios, opts.configFile)
	if err != nil {
		return err
	}
	sel, err := engine.Select(ctx, cfg, changeScope(ios, nil, opts.all, opts.base))
	if err != nil {
		return err
	}
	listed := listedGates(cfg, sel)
	if opts.json {
		enc := json.NewEncoder(ios.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // commands are full of < > &
		if err := enc.Encode(listed); err != nil {
			return fmt.Errorf("write gate list: %w", err)
		}
		return nil
	}
	var table bytes.Buffer
	if err := writeGateTable(&table, cfg, sel, listed, opts.all); err != nil {
		return err
	}
	_, err = io.WriteString(ios.Out, fitTable(table.String(), ios.outWidth(), ios.ColorEnabled(opts.color, ios.StdoutTTY)))
	return err
}

func listedGates(cfg *config.Config, sel *engine.Selection) []listedGate {
	out := make([]listedGate, 0, len(cfg.Gates))
	for _, g := range cfg.Gates {
		why, runs := sel.Reasons[g.Name]
		if !runs {
			why = sel.Skipped[g.Name]
		}
		l := listedGate{
			Name:     g.Name,
			Kind:     g.Kind,
			Run:      runs,
			Reason:   why,
			Command:  g.Command(),
			Paths:    nonNil(g.Paths),
			Exclude:  nonNil(g.Exclude),
			Severity: g.Severity,
			When:     g.When,
			Enabled:  g.Enabled,
			Needs:    g.Needs,
		}
		if g.Review != nil {
			l.CLI = g.Review.CLI
		}
		if g.Kind == gates.KindCheck {
			l.Format = findings.For(g).Names()
			if len(g.Format) > 0 && len(l.Format) == 1 && l.Format[0] == "errorformat" {
				l.Format = g.Format
			}
			l.NewOnly = g.NewOnly
		}
		out = append(out, l)
	}
	return out
}

func writeGateTable(w io.Writer, cfg *config.Config, sel *engine.Selection, listed []listedGate, all bool) error {
	if len(listed) == 0 {
		_, err := fmt.Fprintf(w, "no gates in %s\n", config.DisplayPath(cfg.Path))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// The graph of needs is a column of its own, shown only when a gate has needs, so that a
	// config without them lists as it always did.
	withNeeds := slices.ContainsFunc(listed, func(l listedGate) bool { return len(l.Needs) > 0 })
	if withNeeds {
		fmt.Fprintln(tw, "GATE\tKIND\tRUN\tNEEDS\tREASON\tCOMMAND")
	} else {
		fmt.Fprintln(tw, "GATE\tKIND\tRUN\tREASON\tCOMMAND")
	}
	for _, l := range listed {
		run := "no"
		if l.Run {
			run = "yes"
		}
		if withNeeds {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Name, l.Kind, run, cmp.Or(strings.Join(l.Needs, ","), "-"), oneLine(l.Reason), oneLine(shownCommand(l)))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Name, l.Kind, run, oneLine(l.Reason), oneLine(shownCommand(l)))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write gate list: %w", err)
	}
	if err := writeSetupTable(w, cfg, sel); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d of %s would run%s\n%s", len(sel.Run), termtext.Count(len(listed), "gate"), changeSummary(sel), scopingNote(sel, all))
	return err
}

// scopingNote says which gates change scoping applies to ("" when it applies to none this time:
// --all, or nothing to compare against, which the count line says): a gate without paths runs on
// every call, which "the gates the change touches" does not tell.
func scopingNote(sel *engine.Selection, all bool) string {
	if all || sel.AllBecause != "" || sel.Changes != nil && sel.Changes.All {
		return ""
	}
	switch {
	case sel.WithPaths == 0 && sel.WithoutPaths > 0:
		return "no gate has paths: every gate runs on every call; give a gate paths: to run it only when the change touches a matching file\n"
	case sel.WithPaths == 0:
		return ""
	}
	note := "change scoping applies to the " + termtext.Count(sel.WithPaths, "gate") + " with paths (each runs when a changed file matches)"
	switch sel.WithoutPaths {
	case 0:
	case 1:
		note += "; the 1 gate without paths runs on every call"
	default:
		note += "; the " + termtext.Count(sel.WithoutPaths, "gate") + " without paths run on every call"
	}
	return note + "\n"
}

// writeSetupTable lists the setup steps and which of the gates that would run need each: a step
// runs when one of them runs (and its cache does not answer for it).
func writeSetupTable(w io.Writer, cfg *config.Config, sel *engine.Selection) error {
	if len(cfg.Setup) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nSETUP\tRUN\tNEEDED BY\tCOMMAND")
	for _, s := range cfg.Setup {
		run, by := "no", "no gate that would run"
		if needers := sel.NeededBy[s.Name]; len(needers) > 0 {
			run, by = "yes", strings.Join(needers, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, run, by, oneLine(s.Command()))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write setup list: %w", err)
	}
	return nil
}

// shownCommand is what a gate does, for the table: its command, or what a review or todos gate
// looks at.
func shownCommand(l listedGate) string {
	switch {
	case l.Command != "":
		return l.Command
	case l.Kind == gates.KindReview:
		return "review of the diff by " + l.CLI
	case l.Kind == gates.KindTodos:
		return "the agent's todo list (stop-hook only)"
	}
	return ""
}

// changeSummary says what the scoping looked at; nothing when no gate needed it.
func changeSummary(sel *engine.Selection) string {
	set := sel.Changes
	switch {
	case sel.AllBecause != "":
		return "; " + termtext.Line(sel.AllBecause) + ": every gate runs"
	case set == nil:
		return ""
	case set.All:
		return "; no change scoping: " + cmp.Or(set.BaseErr, "nothing to compare against")
	case set.Base != "":
		return fmt.Sprintf("; %s changed against %s", termtext.Count(len(set.Files), "file"), set.Base)
	default:
		return fmt.Sprintf("; %s changed in the working tree (%s)", termtext.Count(len(set.Files), "file"), set.BaseErr)
	}
}

// oneLine keeps a multi-line command or reason from breaking the table.
func oneLine(s string) string {
	first, _, more := strings.Cut(s, "\n")
	if more {
		return first + " ..."
	}
	return first
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// fitTable cuts each line of the gate table to width columns (0: not cut) and colours its RUN
// column, yes as a pass and no as a skip. The colour goes on after tabwriter has aligned the
// columns, which would count its escape sequences as text.
func fitTable(table string, width int, colored bool) string {
	lines := strings.SplitAfter(table, "\n")
	col := -1
	if len(lines) > 0 {
		col = strings.Index(lines[0], "  RUN  ")
	}
	for i, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		if width > 0 && utf8.RuneCountInString(body) > width {
			body = string([]rune(body)[:width-1]) + "…"
		}
		if colored && i > 0 && col >= 0 && strings.TrimSpace(body) != "" {
			body = paintRunCell(body, col+2)
		}
		lines[i] = body + strings.TrimPrefix(line, strings.TrimSuffix(line, "\n"))
		if strings.TrimSpace(body) == "" {
			col = -1 // the table ends at its first blank line
		}
	}
	return strings.Join(lines, "")
}

// paintRunCell colours the yes or no that starts at byte at of a table row.
func paintRunCell(row string, at int) string {
	for _, cell := range []struct {
		word   string
		status gates.Status
	}{{"yes", gates.StatusPass}, {"no", gates.StatusSkipped}} {
		if strings.HasPrefix(row[min(at, len(row)):], cell.word+" ") {
			return row[:at] + report.PaintStatus(cell.word, cell.status, true) + row[at+len(cell.word):]
		}
	}
	return row
}
