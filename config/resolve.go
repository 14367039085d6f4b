package config

import (
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// resolve turns a validated raw config into a Config with every default applied.
func resolve(raw *rawFile) *Config {
	c := &Config{
		Jobs:              valueOr(raw.Jobs, runtime.NumCPU()),
		Timeout:           time.Duration(valueOr(raw.Timeout, duration(DefaultTimeout))),
		FailFast:          valueOr(raw.FailFast, false),
		Base:              valueOr(raw.Base, ""),
		KeepRuns:          valueOr(raw.KeepRuns, DefaultKeepRuns),
		ChangeCoverageMin: valueOr(raw.ChangeCoverageMin, 0),
		Env:               raw.Env.entries(),
		StopHook:          resolveStopHook(raw.StopHook),
		Redact:            resolveRedact(raw.Redact),
		Causes:            valueOr(raw.Causes, true),
		ownTimeout:        make(map[string]bool),
		Cache:             cacheEnabled(raw.Cache),
		RemoteCache:       resolveRemoteCache(raw.Cache),
		Integrity:         raw.Integrity.policy,
	}
	if c.Base == "auto" {
		c.Base = ""
	}
	c.defaultFrom = gates.TimeoutFromBuiltin
	if raw.Timeout != nil {
		c.defaultFrom = gates.TimeoutFromConfig
	}
	for _, ng := range raw.Gates {
		c.Gates = append(c.Gates, resolveGate(ng.Name, ng.Gate, c))
		if ng.Gate.Timeout != nil {
			c.ownTimeout[ng.Name] = true
		}
	}
	for _, ns := range raw.Setup {
		c.Setup = append(c.Setup, resolveSetup(ns.Name, ns.Step, c))
		if ns.Step.Timeout != nil {
			c.ownTimeout[ns.Name] = true
		}
	}
	return c
}

func resolveStopHook(raw *rawStopHook) StopHook {
	if raw == nil {
		raw = &rawStopHook{}
	}
	return StopHook{
		MaxAttempts:     valueOr(raw.MaxAttempts, DefaultMaxAttempts),
		Timeout:         time.Duration(valueOr(raw.Timeout, duration(DefaultStopHookTimeout))),
		LockWait:        time.Duration(valueOr(raw.LockWait, duration(DefaultLockWait))),
		Subagents:       valueOr(raw.Subagents, false),
		HonorActiveFlag: valueOr(raw.HonorActiveFlag, false),
		Speculative:     valueOr(raw.Speculative, true),
		QuietPeriod:     time.Duration(valueOr(raw.QuietPeriod, duration(DefaultQuietPeriod))),
		FirstFailure:    valueOr(raw.FirstFailure, firstFailure(DefaultFirstFailureGrace.String())).resolve(),
		Autofix:         valueOr(raw.Autofix, false),
		LocalOverrides:  valueOr(raw.LocalOverrides, LocalReport),
		PreExisting:     valueOr(raw.PreExisting, PreExistingReport),
		ReasonLimit:     valueOr(raw.ReasonLimit, DefaultReasonLimit),
		PreEdit:         valueOr(raw.PreEdit, PreEditDeny),
	}
}

func resolveRedact(raw *rawRedact) redact.Rules {
	if raw == nil {
		return redact.Rules{}
	}
	return redact.Rules{Names: raw.Names, Exempt: raw.Exempt}
}

func resolveGate(name string, g *rawGate, c *Config) gates.Gate {
	kind := gates.Kind(valueOr(g.Kind, string(gates.KindCheck)))
	onTimeout := gates.StatusFail
	if kind == gates.KindReview {
		// A reviewer that runs out of time has not judged the code.
		onTimeout = gates.StatusError
	}
	out := gates.Gate{
		Name:           name,
		Kind:           kind,
		Run:            valueOr(g.Run, ""),
		Argv:           g.Argv,
		Shell:          valueOr(g.Shell, ""),
		Dir:            cleanDir(valueOr(g.Dir, "")),
		Env:            append(append([]string(nil), c.Env...), g.Env.entries()...),
		Timeout:        time.Duration(valueOr(g.Timeout, duration(c.Timeout))),
		TimeoutFrom:    c.timeoutFrom(g.Timeout != nil),
		Paths:          g.Paths,
		Exclude:        g.Exclude,
		Glob:           g.Glob,
		Severity:       gates.Severity(valueOr(g.Severity, string(gates.SeverityError))),
		OnTimeout:      gates.Status(valueOr(g.OnTimeout, string(onTimeout))),
		InfraExitCodes: g.InfraExitCodes, // nil when absent: gates.DefaultInfraExitCodes apply
		InfraPatterns:  compileAll(g.InfraPatterns),
		Hint:           valueOr(g.Hint, ""),
		When:           gates.When(valueOr(g.When, string(gates.WhenAlways))),
		Enabled:        valueOr(g.Enabled, true),
		Cache:          valueOr(g.Cache, c.Cache),
		Inputs:         g.Inputs,
		Session:        valueOr(g.Session, false),
		Format:         g.Format,
		NewOnly:        valueOr(g.NewOnly, false),
		Writes:         valueOr(g.Writes, false),
		Needs:          g.Needs.names(),
		Fix:            valueOr(g.Fix, ""),
		// Only check gates read their output for causes: a review or todos gate judges itself.
		Causes: kind == gates.KindCheck && valueOr(g.Causes, c.Causes),
		// A costly gate (a review) can wait for the stop instead of running on every edit.
		Speculative: valueOr(g.Speculative, true),
		Tests:       valueOr(g.Tests, ""),
		Coverage:    valueOr(g.Coverage, ""),
	}
	if kind == gates.KindReview {
		out.Review = &gates.Review{
			CLI:          valueOr(g.CLI, ""),
			Prompt:       valueOr(g.Prompt, ""),
			PromptFile:   valueOr(g.PromptFile, ""),
			Model:        valueOr(g.Model, ""),
			MaxDiffBytes: valueOr(g.MaxDiffBytes, int64(DefaultMaxDiffBytes)),
		}
	}
	return out
}

func (m envMap) entries() []string {
	var out []string
	for _, v := range m {
		out = append(out, v.Name+"="+v.Value)
	}
	return out
}

// cleanDir gives "" for the root itself, so that callers can join it without special cases.
func cleanDir(dir string) string {
	if dir == "" {
		return ""
	}
	if clean := filepath.Clean(dir); clean != "." {
		return clean
	}
	return ""
}

// compileAll compiles patterns the decoder has already checked.
func compileAll(patterns []string) []*regexp.Regexp {
	if len(patterns) == 0 {
		return nil
	}
	out := make([]*regexp.Regexp, 0, len(patterns))
	for _, p := range patterns {
		if re, err := regexp.Compile(p); err == nil {
			out = append(out, re)
		}
	}
	return out
}
