package integrity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/hookfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

func isHookFile(p string) bool { return len(hookHosts(p)) > 0 }

// codexConfig is Codex's project config, which can hold its hooks as TOML too.
const codexConfig = ".codex/config.toml"

// hookHosts are the hosts that read p as a project hook file.
func hookHosts(p string) []hosts.Name {
	if p == codexConfig {
		return []hosts.Name{hosts.Codex}
	}
	return hookfile.HostsOf(p)
}

// hookFile reports the gauntlet stop-hook entry removed or changed in a host's project file, and
// every hook of the file disabled.
func (j *judge) hookFile(c configPair) {
	for _, host := range hookHosts(c.file.Path) {
		j.stopHookEntry(c, host)
	}
	j.hooksDisabled(c)
}

// stopHookEntry reports the gauntlet stop hook, there at the base, gone or changed in what one
// host reads.
func (j *judge) stopHookEntry(c configPair, host hosts.Name) {
	file := c.file.Path
	oldHooks := hookfile.HooksIn(host, cmpOr(c.file.OldPath, file), c.old)
	newHooks := hookfile.HooksIn(host, file, c.new)
	if len(oldHooks) == 0 {
		return
	}
	line := cmpOr0(lineOf(c.newData, "hooks"), 1)
	switch {
	case c.file.Deleted:
		j.add(gates.RuleHookWeakened, file, 0, "%s hook file deleted: the gauntlet stop hook no longer runs", host)
	case len(newHooks) == 0:
		j.add(gates.RuleHookWeakened, file, line, "gauntlet stop hook removed from %s's hooks", host)
	case !slices.Equal(hookKeys(oldHooks), hookKeys(newHooks)):
		j.add(gates.RuleHookWeakened, file, cmpOr0(lineOf(c.newData, "hooks", "command"), line), "gauntlet stop hook entry changed: %s", hookChange(oldHooks, newHooks))
	}
}

// hooksDisabled reports the settings that turn every hook of the file off.
func (j *judge) hooksDisabled(c configPair) {
	file := c.file.Path
	if !truthy(c.old["disableAllHooks"]) && truthy(c.new["disableAllHooks"]) {
		j.add(gates.RuleHookWeakened, file, lineOf(c.newData, "disableAllHooks"), "every hook disabled (disableAllHooks: true)")
	}
	for _, k := range []string{"hooks", "hooksConfig"} {
		o, n := getMap(c.old, k), getMap(c.new, k)
		if o["enabled"] != false && n != nil && n["enabled"] == false {
			j.add(gates.RuleHookWeakened, file, lineOf(c.newData, k, "enabled"), "every hook disabled (%s.enabled: false)", k)
		}
	}
}

func hookKeys(hs []hookfile.Hook) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = fmt.Sprintf("%s\x00%v\x00%d", h.Command, h.Timeout, h.Cap)
	}
	slices.Sort(out)
	return out
}

func hookChange(old, new []hookfile.Hook) string {
	o, n := old[0], new[0]
	var parts []string
	if o.Command != n.Command {
		parts = append(parts, fmt.Sprintf("command %s → %s", shown(o.Command), shown(n.Command)))
	}
	if o.Timeout != n.Timeout {
		parts = append(parts, fmt.Sprintf("timeout %v → %v", o.Timeout, n.Timeout))
	}
	if o.Cap != n.Cap {
		parts = append(parts, fmt.Sprintf("block cap %d → %d", o.Cap, n.Cap))
	}
	if len(old) != len(new) {
		parts = append(parts, fmt.Sprintf("%d entries → %d", len(old), len(new)))
	}
	if len(parts) == 0 {
		return "entries differ"
	}
	return strings.Join(parts, ", ")
}
