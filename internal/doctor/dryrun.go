package doctor

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// DryRun is what one host's agent would be told on stopping now.
type DryRun struct {
	Host     hosts.Name `json:"host"`
	Decision string     `json:"decision"` // block | allow
	// Stdout is the reply exactly as the host would read it.
	Stdout string `json:"stdout"`
	// Told is the block reason (the agent's next instruction) or the message for the user.
	Told string `json:"told,omitempty"`
}

// DryEnv is what the dry run passes to the stop hook.
type DryEnv struct {
	Getenv  func(string) string
	Environ []string
	Stderr  io.Writer // the gates' progress
}

// dryRunSession names the synthetic session: its counts and sticky gates are nobody's.
const dryRunSession = "gauntlet-doctor"

// DryRuns runs the stop hook once, as stophook.Run would for the first host, with a synthetic
// payload and DryRun set (no attempt counted, no ledger or history written; the gates run and
// log as in any run), and puts the answer in each host's words: the verdict is the same for
// every host, so the gates run once.
func DryRuns(ctx context.Context, cfg *config.Config, names []hosts.Name, env DryEnv) []DryRun {
	if cfg == nil || len(names) == 0 {
		return nil
	}
	first := names[0]
	spec := hosts.MustGet(first)
	payload, _ := json.Marshal(map[string]any{
		"session_id": dryRunSession, "hook_event_name": spec.StopEvent, "cwd": cfg.Root,
	})
	getenv := func(k string) string {
		if k == "GAUNTLET" { // doctor run from a gate still judges as a host would
			return ""
		}
		return env.Getenv(k)
	}
	out := stophook.Run(ctx, stophook.Options{
		Stdin:   strings.NewReader(string(payload)),
		Stderr:  env.Stderr,
		Getenv:  getenv,
		Environ: env.Environ,
		Cwd:     cfg.Root,
		Host:    first,
		DryRun:  true,
	})
	var runs []DryRun
	for _, h := range names {
		d := DryRun{Host: h, Decision: "allow", Stdout: string(stophook.Encode(h, out.Reply))}
		switch out.Reply.Verdict {
		case stophook.Block:
			d.Decision, d.Told = "block", out.Reply.Reason
		case stophook.Notify:
			d.Told = out.Reply.Message
		}
		runs = append(runs, d)
	}
	return runs
}
