package hookfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// afterEditTimeout is the host timeout of an after-edit entry: the hook returns at once (it only
// starts a background judge), so a hung one must not hold the agent's tool call for long.
const afterEditTimeout = 10 * time.Second

// AfterEditCommand is the after-edit hook's command line for a stop hook's: the same program,
// named the same way, with the same flags after the subcommand (the host it names: see
// HostArgs).
func AfterEditCommand(stopHook, args string) string {
	stopHook = strings.TrimSpace(stopHook)
	i := strings.LastIndex(stopHook, "stop-hook")
	if i < 0 {
		return stopHook + " " + args
	}
	return stopHook[:i] + args + stopHook[i+len("stop-hook"):]
}

// HostArgs are a hook's arguments with the host named: every entry init installs says which host
// runs it, since the payloads of some events (Gemini CLI's and Codex's SessionStart and
// SessionEnd) carry nothing that tells their host apart from Claude Code's.
func HostArgs(host hosts.Name, args string) string {
	return args + " --host " + string(host)
}

// WithAfterEdit adds to the planned file the host's after-edit and pre-edit entries (see
// hosts.EventHook) that are not there yet, for the same program as the stop hook's command. A
// file the host reads with comments is patched for the stop hook only, and left so.
func (c *Change) WithAfterEdit(stopCommand string) error {
	spec := hosts.MustGet(c.Host)
	if len(spec.EventHooks()) == 0 {
		return nil
	}
	data := c.Content
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	if !json.Valid(data) {
		return nil
	}
	v, err := decodeJSON(data)
	if err != nil {
		return nil
	}
	doc, ok := v.(*object)
	if !ok {
		return nil
	}
	added, err := addAfterEdit(doc, spec, stopCommand)
	if err != nil {
		return &InvalidFileError{Path: c.Rel, Reason: err.Error()}
	}
	if len(added) == 0 {
		return nil
	}
	if c.Content, err = encodeJSON(doc); err != nil {
		return fmt.Errorf("encode %s: %w", c.Rel, err)
	}
	c.Installed = false
	// Where and the preview name only what is added: an event whose entry was there stays out.
	for _, a := range added {
		c.Where += ", hooks." + a.event
		c.Entries = append(c.Entries, "hooks."+a.event+": "+a.entry)
	}
	return nil
}

// addedEntry is one after-edit entry added: its event and the entry as one line of JSON.
type addedEntry struct{ event, entry string }

func marshalLine(v *object) string {
	b, err := v.MarshalJSON()
	if err != nil {
		return ""
	}
	return string(b)
}

// addAfterEdit adds the host's after-edit and pre-edit entries that are not there yet and
// returns them; none when none was missing. An entry running the same gauntlet command (after-edit
// in the same role, or pre-edit), by any path, counts as there.
func addAfterEdit(doc *object, spec hosts.Host, stopCommand string) ([]addedEntry, error) {
	if spec.Hook.Entry != hosts.CommandGroup && spec.Hook.Entry != hosts.BashCommand {
		return nil, nil
	}
	var added []addedEntry
	for _, ev := range spec.EventHooks() {
		hooks, list, err := eventList(doc, ev.Event)
		if err != nil {
			return nil, err
		}
		if runsCommand(list, sameRole(ev.Args)) {
			continue
		}
		e := afterEditEntry(spec, ev, AfterEditCommand(stopCommand, ev.Args))
		hooks.set(ev.Event, append(list, e))
		doc.set("hooks", hooks)
		added = append(added, addedEntry{ev.Event, marshalLine(e)})
	}
	return added, nil
}

// afterEditEntry is the entry that runs command on the event: Copilot's stands alone in the
// event's list, with no matcher (every tool); the others' is a group with the event's matcher.
func afterEditEntry(spec hosts.Host, ev hosts.EventHook, command string) *object {
	timeout := afterEditTimeout
	if ev.Timeout > 0 {
		timeout = min(timeout, ev.Timeout)
	}
	if spec.Hook.Entry == hosts.BashCommand {
		return entry(spec, command, int(timeout/time.Second))
	}
	c := newObject().set("type", "command").set(spec.Hook.CommandKey, command).
		set(spec.TimeoutKey, spec.TimeoutValue(timeout))
	group := newObject()
	if ev.Matcher != "" {
		group.set("matcher", ev.Matcher)
	}
	group.set("hooks", []any{c})
	return group
}

// sameRole matches a command that runs the same gauntlet hook as args: after-edit in the same
// role, or pre-edit.
func sameRole(args string) func(string) bool {
	sub, _, _ := strings.Cut(args, " ")
	return func(s string) bool { return runsGauntlet(s, sub) && afterEditRole(s) == afterEditRole(args) }
}

// IsPreEditCommand reports whether a hook command runs gauntlet's edit guard.
func IsPreEditCommand(command string) bool { return runsGauntlet(command, "pre-edit") }

// MissingPreEdit lists the host's pre-edit events that none of its hook files under root gives a
// gauntlet pre-edit command: edits are then judged only at the stop.
func MissingPreEdit(root string, host hosts.Name) []string {
	spec, ok := hosts.Get(host)
	if !ok {
		return nil
	}
	return missingEvents(root, spec, spec.PreEdit)
}

// IsAfterEditCommand reports whether a hook command runs gauntlet's after-edit hook.
func IsAfterEditCommand(command string) bool {
	return runsGauntlet(command, "after-edit")
}

// runsCommand looks for a command anywhere in an event's entries that matches.
func runsCommand(v any, match func(string) bool) bool {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			if runsCommand(item, match) {
				return true
			}
		}
	case *object:
		for _, k := range v.keys {
			if isMatchingCommand(k, v.vals[k], match) || runsCommand(v.vals[k], match) {
				return true
			}
		}
	}
	return false
}

// isMatchingCommand reports whether an entry's member key: value is a command (Copilot: bash)
// that matches.
func isMatchingCommand(key string, value any, match func(string) bool) bool {
	s, ok := value.(string)
	return ok && (key == "command" || key == "bash") && match(s)
}

// MissingAfterEdit lists the host's after-edit events that none of its hook files under root
// gives a gauntlet after-edit command: the verdict is then judged only when the agent stops.
func MissingAfterEdit(root string, host hosts.Name) []string {
	spec, ok := hosts.Get(host)
	if !ok {
		return nil
	}
	return missingEvents(root, spec, spec.AfterEdit)
}

// missingEvents lists the events of evs that none of the host's hook files under root gives the
// gauntlet command of.
func missingEvents(root string, spec hosts.Host, evs []hosts.EventHook) []string {
	if len(evs) == 0 {
		return nil
	}
	var docs []map[string]any
	for _, rel := range spec.Hook.Files {
		if strings.Contains(rel, "*") {
			continue
		}
		data, err := readHookFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		var doc map[string]any
		if unmarshal(spec, data, &doc) == nil {
			docs = append(docs, doc)
		}
	}
	var missing []string
	for _, ev := range evs {
		found := slices.ContainsFunc(docs, func(doc map[string]any) bool {
			hooks, _ := doc["hooks"].(map[string]any)
			return anyCommand(hooks[ev.Event], sameRole(ev.Args))
		})
		if !found {
			missing = append(missing, "hooks."+ev.Event)
		}
	}
	return missing
}

// anyCommand is runsCommand for a decoded (not order-keeping) document.
func anyCommand(v any, match func(string) bool) bool {
	switch v := v.(type) {
	case []any:
		return slices.ContainsFunc(v, func(item any) bool { return anyCommand(item, match) })
	case map[string]any:
		for k, val := range v {
			if s, ok := val.(string); ok && (k == "command" || k == "bash") && match(s) {
				return true
			}
			if anyCommand(val, match) {
				return true
			}
		}
	}
	return false
}

// afterEditRole tells the after-edit entries apart: the session's start, its end, or an edit.
func afterEditRole(command string) string {
	for _, flag := range []string{"--session-start", "--session-end"} {
		if strings.Contains(command, flag) {
			return flag
		}
	}
	return ""
}
