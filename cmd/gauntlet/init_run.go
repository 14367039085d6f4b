package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/atomicfile"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// runQuestion is asked on a terminal once init has written the config, unless --run said.
const runQuestion = "Run the gates once now?"

// wantsFirstRun says whether init runs the gates once: --run says so, else a terminal is asked
// (yes unless the user says no); --yes without --run runs nothing, so that a script's init
// stays a file write.
func wantsFirstRun(opts initOptions, env initEnv, p *initPlan) (bool, error) {
	if !p.configWritten {
		if opts.run {
			fmt.Fprintf(env.out, "\ngauntlet init: no first run: init did not write %s\n", p.configName)
		}
		return false, nil
	}
	if opts.runSet || !env.interactive || opts.yes {
		return opts.run, nil
	}
	yes, err := env.prompter.ConfirmYes(runQuestion)
	if err != nil {
		return false, fmt.Errorf("read answer: %w", err)
	}
	return yes, nil
}

// firstRun runs every gate once on the tree init leaves, as `gauntlet run --all` does, and marks
// in the config each gate that fails there. Its verdict is reported, not init's outcome: the
// config was written, and a red tree is what the run found, not what init did. Only an interrupt
// stops init; a run that could not finish (another holds the lock) is said and init succeeds.
//
// The files init wrote are not a change: a tree that differs from its commit by them alone is the
// commit's, so the run keeps its test census and coverage as the base's, and the first agent stop
// whose base is that commit does not run the base to measure them.
func firstRun(ctx context.Context, env initEnv, p *initPlan) error {
	fmt.Fprintf(env.out, "\ngauntlet init: running every gate once on the tree as it is (init's first run)\n")
	path := filepath.Join(p.root, p.configName)
	var run *engine.Run
	outs, err := parseOutputs(env.ios, nil, "")
	if err != nil {
		return err
	}
	opts := &runOptions{IO: env.ios, configFile: path, all: true, color: "auto", outputs: outs,
		notTheChange: p.written, ran: func(r *engine.Run) { run = r }}
	err = runGates(ctx, opts)
	var verdict *verdictExit
	switch {
	case errors.Is(err, errInterrupted):
		return err
	case err != nil && !errors.As(err, &verdict):
		fmt.Fprintf(env.ios.ErrOut, "gauntlet init: the first run did not finish: %v\n", err)
	}
	if run == nil {
		return nil
	}
	return markFirstRun(env.out, path, p.configName, run.Results, time.Now())
}

// markFirstRun writes, just above each gate that failed or could not run at the first run, a
// comment that says so, and names them. The gates themselves are left as written.
func markFirstRun(w io.Writer, path, name string, results []gates.Result, now time.Time) error {
	data, err := readBounded(path)
	if err != nil {
		return fmt.Errorf("read %s to mark the first run's failures: %w", name, err)
	}
	marks := firstRunMarks(results, now)
	if len(marks) == 0 {
		return nil
	}
	marked, err := markGates(data, marks)
	if err != nil {
		return fmt.Errorf("mark the first run's failures in %s: %w", name, err)
	}
	if err := atomicfile.Write(path, marked, 0o644); err != nil {
		return fmt.Errorf("mark the first run's failures in %s: %w", name, err)
	}
	var failing, broken []string
	for _, r := range results {
		switch {
		case failedAtFirstRun(r.Status):
			failing = append(failing, r.Name)
		case r.Status == gates.StatusError:
			broken = append(broken, r.Name)
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(w, "gauntlet init: marked %s in %s as failing before any change: %s\n",
			termtext.Count(len(failing), "gate"), name, strings.Join(failing, ", "))
	}
	if len(broken) > 0 {
		fmt.Fprintf(w, "gauntlet init: marked %s in %s as could not run: %s\n",
			termtext.Count(len(broken), "gate"), name, strings.Join(broken, ", "))
	}
	return nil
}

// failedAtFirstRun: a gate that reported a failure, blocking or not.
func failedAtFirstRun(s gates.Status) bool {
	return s == gates.StatusFail || s == gates.StatusWarn
}

// firstRunMarks are the comment lines, by gate name, for the gates that did not pass.
func firstRunMarks(results []gates.Result, now time.Time) map[string]string {
	day := now.UTC().Format("2006-01-02")
	marks := map[string]string{}
	for _, r := range results {
		reason := firstRunReason(r)
		switch {
		case failedAtFirstRun(r.Status):
			marks[r.Name] = fmt.Sprintf("# failing before any change (init's first run, %s): %s", day, reason)
		case r.Status == gates.StatusError:
			marks[r.Name] = "# could not run at init's first run: " + reason
		}
	}
	return marks
}

// maxReason bounds a mark's reason: a comment line, not the gate's output.
const maxReason = 200

// firstRunReason is why r did not pass, with its first finding where it has one, so that the
// comment says what fails, not only that the command exited non-zero.
func firstRunReason(r gates.Result) string {
	reason := commentLine(r.Reason)
	if len(r.Findings) > 0 {
		f := r.Findings[0]
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		reason = fmt.Sprintf("%s; %s, first: %s: %s", reason, termtext.Count(len(r.Findings), "finding"), where, commentLine(f.Message))
	}
	if len([]rune(reason)) > maxReason {
		reason = string([]rune(reason)[:maxReason-3]) + "..."
	}
	return reason
}

// commentLine keeps a reason to one line of a comment, every line of it joined.
func commentLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no reason given)"
	}
	return s
}

// markGates inserts each mark on its own line just above its gate's key under gates:, indented
// as the key is. Lines are found by parsing, so that a quoted or unusual key is found too.
func markGates(data []byte, marks map[string]string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	keys := gateKeys(&doc)
	lines := strings.SplitAfter(string(data), "\n")
	type insert struct {
		line int // 0-based line of the key
		text string
	}
	var ins []insert
	for _, k := range keys {
		if mark, ok := marks[k.Value]; ok && k.Line >= 1 && k.Line <= len(lines) {
			ins = append(ins, insert{k.Line - 1, strings.Repeat(" ", k.Column-1) + mark + "\n"})
		}
	}
	// From the bottom up, so that each key's line number still holds.
	slices.SortFunc(ins, func(a, b insert) int { return b.line - a.line })
	for _, in := range ins {
		lines = slices.Insert(lines, in.line, in.text)
	}
	return []byte(strings.Join(lines, "")), nil
}

// gateKeys are the key nodes of the mapping under the document's gates:.
func gateKeys(doc *yaml.Node) []*yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "gates" || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		var keys []*yaml.Node
		m := top.Content[i+1]
		for j := 0; j+1 < len(m.Content); j += 2 {
			keys = append(keys, m.Content[j])
		}
		return keys
	}
	return nil
}
