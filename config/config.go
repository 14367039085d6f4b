// Package config finds, strictly decodes, merges and validates .gauntlet.yml into typed values;
// YAML details stay here, the rest of gauntlet sees gates.Gate.
package config

import (
	"errors"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// File names, in the order Find looks for them.
const (
	FileName      = ".gauntlet.yml"
	AltFileName   = ".gauntlet.yaml"
	LocalFileName = ".gauntlet.local.yml"
)

// Defaults of SPEC §3, applied when a key is absent.
const (
	DefaultTimeout         = 10 * time.Minute
	DefaultKeepRuns        = 10
	DefaultMaxAttempts     = 3
	DefaultStopHookTimeout = 9 * time.Minute
	// DefaultQuietPeriod is how long the tree must stay unchanged before a background judge starts:
	// an agent editing several files in a row starts one judge, not one per file.
	DefaultQuietPeriod  = time.Second
	DefaultLockWait     = 30 * time.Second
	DefaultMaxDiffBytes = gates.DefaultMaxDiffBytes
	// DefaultReasonLimit bounds a block's reason, in characters: enough for every failing test
	// and the first detail, short enough to leave the agent's context to the work (SPEC §5.2
	// caps it at 8,000, the most stop_hook.reason_limit may ask).
	DefaultReasonLimit = 4000
)

// ErrNotFound means no config file exists between the starting directory and the repository
// root; callers such as the stop hook treat it as "gauntlet is not set up here".
var ErrNotFound = errors.New("no " + FileName + " or " + AltFileName + " found")

// Config is a loaded, validated configuration with every default resolved.
type Config struct {
	Path      string // absolute path of the config file used
	LocalPath string // absolute path of the merged local override; "" when there was none
	// Overrides are what the local override changes of the gates and of the keys that decide a
	// verdict, in the main file's order; MainOnly is the config of the main file alone, which the
	// stop hook judges with unless stop_hook.local_overrides is honour (nil without a local
	// override, or when the main file alone is not a valid config).
	Overrides []Override
	MainOnly  *Config
	// Digest identifies the bytes this config was loaded from (both files), so that what is
	// remembered about a config (the stop hook's fingerprint) is about exactly these bytes.
	Digest   string
	Root     string // absolute directory of the config file: the project root
	Jobs     int
	Timeout  time.Duration // default per-gate timeout
	FailFast bool
	Base     string // "" means auto
	KeepRuns int
	// ChangeCoverageMin is the percent of the lines the change adds or edits, in files a covered
	// gate exercises, that its tests must run for change-uncovered to stay quiet; 0 names every
	// run of lines no test runs.
	ChangeCoverageMin int
	Env               []string // "K=V", in file order
	StopHook          StopHook
	Gates             []gates.Gate // in file order, disabled gates included with Enabled=false
	// Setup are the setup steps, in file order: check gates with Setup set, run only for the
	// gates that need them.
	Setup []gates.Gate
	// Cache is the top-level cache key: the default of every gate's own.
	Cache bool
	// RemoteCache is cache.remote; nil without one.
	RemoteCache *RemoteCache
	// ContentDigest identifies the config by its bytes alone (both files), not by where they
	// are: shards of one CI run check out the same files at different paths, and their reports
	// must still be recognised as coming from the same config.
	ContentDigest string
	Redact        redact.Rules // the redact section
	// Causes is the top-level default of every check gate's causes key.
	Causes bool
	// Integrity is the `integrity` setting; its zero value means the defaults of each context.
	Integrity gates.IntegrityPolicy

	// places are where each gate and setup step is defined (PlaceOf).
	places map[string]Place
	// ownTimeout names the gates whose timeout the config set, which a new default must not touch.
	ownTimeout map[string]bool
	// defaultFrom says where Timeout came from (gates.TimeoutFromConfig, ...).
	defaultFrom string
}

// StopHook holds the stop_hook section.
type StopHook struct {
	MaxAttempts     int
	Timeout         time.Duration
	LockWait        time.Duration
	Subagents       bool
	HonorActiveFlag bool
	FirstFailure    FirstFailure
	// Speculative lets the after-edit hook start a background judge; QuietPeriod is how long the
	// tree must stay unchanged before it starts.
	Speculative bool
	QuietPeriod time.Duration
	// Autofix runs the fixers of the failed gates that have one before a block, and names the
	// files they changed in the reason.
	Autofix bool
	// LocalOverrides says what the stop hook does with what .gauntlet.local.yml changes of the
	// gates: LocalHonour, LocalReport (the default) or LocalIgnore. Set in .gauntlet.yml only.
	LocalOverrides string
	// PreExisting says whether a failure the session's base already has blocks a stop:
	// PreExistingReport (the default: it is reported after the regressions and blocks nothing) or
	// PreExistingBlock (every failure blocks, whatever the base). Set in .gauntlet.yml only.
	PreExisting string
	// ReasonLimit bounds a block's reason, in characters (bytes): what does not fit is behind
	// the log's path.
	ReasonLimit int
	// PreEdit is what the edit guard (gauntlet pre-edit) does with an edit or shell command that
	// weakens the gates: PreEditDeny (the default) refuses it, PreEditWarn lets it run with a
	// warning, PreEditOff lets everything through.
	PreEdit string
}

// The values of stop_hook.pre_edit.
const (
	PreEditDeny = "deny"
	PreEditWarn = "warn"
	PreEditOff  = "off"
)

// What stop_hook.pre_existing may say.
const (
	PreExistingReport = "report"
	PreExistingBlock  = "block"
)

// Options say where to look for the config.
type Options struct {
	Dir  string // where the upward search starts; default: the working directory
	File string // an explicit config file (-c): no search then
	// NoLocal leaves .gauntlet.local.yml out: the stop hook judges with the main file alone when
	// the local file does not load, rather than letting a broken personal file stop the judging.
	NoLocal bool
}

// SetDefaultTimeout replaces the default per-gate timeout, as --timeout does: gates that set
// their own timeout keep it.
func (c *Config) SetDefaultTimeout(d time.Duration) {
	c.Timeout, c.defaultFrom = d, gates.TimeoutFromFlag
	for i := range c.Gates {
		if !c.ownTimeout[c.Gates[i].Name] {
			c.Gates[i].Timeout, c.Gates[i].TimeoutFrom = d, gates.TimeoutFromFlag
		}
	}
	for i := range c.Setup {
		if !c.ownTimeout[c.Setup[i].Name] {
			c.Setup[i].Timeout, c.Setup[i].TimeoutFrom = d, gates.TimeoutFromFlag
		}
	}
}

// timeoutFrom says where a gate's timeout comes from: its own timeout: key, or the default's.
func (c *Config) timeoutFrom(own bool) string {
	if own {
		return gates.TimeoutFromGate
	}
	return c.defaultFrom
}
