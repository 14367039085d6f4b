package config

import "time"

// The raw types mirror the YAML exactly. Pointers and key positions tell "not set" from a zero
// value, which is what lets a local override replace only the keys it names. Tags carry the rules
// that a reflective reader (the decoder here, a JSON Schema generator later) can apply alike:
//   enum:"a,b"      the string must be one of these
//   min:"N" max:"N" integer bounds (for a list, of each item)
//   format:"..."    a string rule from formatRules (for a list, of each item)
//   nonempty:"true" a string must not be blank, a list must have an item
//   only:"kind"     the key belongs to gates of that kind

// rawFile is a whole .gauntlet.yml or .gauntlet.local.yml.
type rawFile struct {
	positions
	Version  *int      `yaml:"version"`
	Jobs     *int      `yaml:"jobs" min:"1"`
	Timeout  *duration `yaml:"timeout"`
	FailFast *bool     `yaml:"fail_fast"`
	Base     *string   `yaml:"base" nonempty:"true"`
	KeepRuns *int      `yaml:"keep_runs" min:"0"`
	// ChangeCoverageMin: the share of the change's lines (percent) its tests must run before
	// change-uncovered names the rest.
	ChangeCoverageMin *int         `yaml:"change_coverage_min" min:"0" max:"100"`
	Env               envMap       `yaml:"env"`
	StopHook          *rawStopHook `yaml:"stop_hook"`
	Gates             gateMap      `yaml:"gates"`
	Cache             *rawCache    `yaml:"cache"`
	Redact            *rawRedact   `yaml:"redact"`
	Causes            *bool        `yaml:"causes"`
	Integrity         integrityKey `yaml:"integrity"`
	Setup             setupMap     `yaml:"setup"`
}

// rawRedact is the redact section: variables to hide beside the built-in naming rule, and ones
// it must leave alone.
type rawRedact struct {
	positions
	Names  []string `yaml:"names" format:"envname"`
	Exempt []string `yaml:"exempt" format:"envname"`
}

type rawStopHook struct {
	positions
	MaxAttempts     *int          `yaml:"max_attempts" min:"1"`
	Timeout         *duration     `yaml:"timeout"`
	LockWait        *duration     `yaml:"lock_wait"`
	Subagents       *bool         `yaml:"subagents"`
	HonorActiveFlag *bool         `yaml:"honor_active_flag"`
	FirstFailure    *firstFailure `yaml:"first_failure"`
	Speculative     *bool         `yaml:"speculative"`
	QuietPeriod     *duration     `yaml:"quiet_period"`
	Autofix         *bool         `yaml:"autofix"`
	LocalOverrides  *string       `yaml:"local_overrides" enum:"honour,report,ignore"`
	PreExisting     *string       `yaml:"pre_existing" enum:"report,block"`
	ReasonLimit     *int          `yaml:"reason_limit" min:"1000" max:"8000"`
	PreEdit         *string       `yaml:"pre_edit" enum:"deny,warn,off"`
}

type rawGate struct {
	positions
	Kind           *string   `yaml:"kind" enum:"check,review,todos"`
	Run            *string   `yaml:"run" nonempty:"true" only:"check"`
	Argv           []string  `yaml:"argv" nonempty:"true" only:"check"`
	Shell          *string   `yaml:"shell" enum:"sh,bash,cmd,pwsh,powershell" only:"check"`
	Dir            *string   `yaml:"dir" format:"reldir"`
	Env            envMap    `yaml:"env"`
	Timeout        *duration `yaml:"timeout"`
	Paths          []string  `yaml:"paths" format:"glob"`
	Exclude        []string  `yaml:"exclude" format:"glob"`
	Glob           []string  `yaml:"glob" format:"glob" only:"check"`
	Severity       *string   `yaml:"severity" enum:"error,warn"`
	OnTimeout      *string   `yaml:"on_timeout" enum:"fail,error"`
	InfraExitCodes []int     `yaml:"infra_exit_codes" min:"0" max:"255" only:"check"`
	InfraPatterns  []string  `yaml:"infra_patterns" format:"regexp" only:"check"`
	Hint           *string   `yaml:"hint"`
	When           *string   `yaml:"when" enum:"always,local,ci"`
	Enabled        *bool     `yaml:"enabled"`
	CLI            *string   `yaml:"cli" nonempty:"true" only:"review"`
	Prompt         *string   `yaml:"prompt" nonempty:"true" only:"review"`
	PromptFile     *string   `yaml:"prompt_file" nonempty:"true" only:"review"`
	Model          *string   `yaml:"model" nonempty:"true" only:"review"`
	MaxDiffBytes   *int64    `yaml:"max_diff_bytes" min:"1" only:"review"`
	Cache          *bool     `yaml:"cache"`
	Inputs         []string  `yaml:"inputs" format:"glob"`
	Session        *bool     `yaml:"session"`
	Format         formatKey `yaml:"format" only:"check"`
	NewOnly        *bool     `yaml:"new_only" only:"check"`
	Writes         *bool     `yaml:"writes" only:"check"`
	Causes         *bool     `yaml:"causes" only:"check"`
	Needs          needList  `yaml:"needs"`
	Fix            *string   `yaml:"fix" nonempty:"true" only:"check"`
	Speculative    *bool     `yaml:"speculative"`
	Tests          *string   `yaml:"tests" format:"relglob" only:"check"`
	Coverage       *string   `yaml:"coverage" format:"relglob" only:"check"`
}

// duration is a Go duration string ("90s", "10m") that must be positive.
type duration time.Duration

// envMap keeps environment variables in file order, so that the environment a gate sees is
// reproducible.
type envMap []envVar

type envVar struct {
	Name  string
	Value string
}

// gateMap keeps gates in file order, which is the order reports list them in.
type gateMap []namedGate

type namedGate struct {
	Name string
	Gate *rawGate
	at   pos // the gate's name in the file that first defined it
}

func (m gateMap) find(name string) *namedGate {
	for i := range m {
		if m[i].Name == name {
			return &m[i]
		}
	}
	return nil
}
