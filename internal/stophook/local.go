package stophook

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// judgedConfig is the config this stop is judged with (see config.ForStopHook): with
// stop_hook.local_overrides report (the default) or ignore, what .gauntlet.local.yml changes of
// the gates is set aside; with report and honour, every block and history entry names it.
func (c *call) judgedConfig(cfg *config.Config) *config.Config {
	judged, named, mode := cfg.ForStopHook()
	c.overrides, c.overrideMode = config.OverrideNames(named), mode
	c.dec.overrides = c.overrides
	return judged
}

// withOverrides puts, under the reason's first line, what the local override changes and what
// the stop hook did with it.
func withOverrides(reason string, overrides []string, mode string) string {
	if len(overrides) == 0 {
		return reason
	}
	var note string
	if mode == config.LocalHonour {
		note = "local overrides applied (stop_hook.local_overrides: honour): "
	} else {
		note = "local overrides set aside, the gates run anyway as " + config.FileName + " defines them (stop_hook.local_overrides: report): "
	}
	note += strings.Join(overrides, "; ")
	header, rest, _ := strings.Cut(reason, "\n")
	return capReason(header+"\n"+termtext.Short(note, 1500)+"\n"+rest, MaxReasonBytes)
}

// loadConfig loads the config of the project in dir. A .gauntlet.local.yml that does not load is
// set aside, and said, when .gauntlet.yml loads alone: the local file is not in git, and whoever
// can write it (the gated agent) could otherwise turn any stop into a config error that lets the
// agent stop, with one line the loader refuses (write: true for the remote cache, a typo).
func (c *call) loadConfig(dir string) (*config.Config, error) {
	cfg, err := config.Load(config.Options{Dir: dir})
	if err == nil || errors.Is(err, config.ErrNotFound) {
		return cfg, err
	}
	alone, aloneErr := config.Load(config.Options{Dir: dir, NoLocal: true})
	if aloneErr != nil {
		return nil, err // the main file's own problem
	}
	fmt.Fprintf(c.Stderr, "gauntlet: stop-hook: %s set aside, it does not load: %s\n", config.LocalFileName, oneLine(err.Error()))
	return alone, nil
}
