// Package preedit is the edit guard: it judges a tool call an agent is about to make (a file
// written or edited, a shell command) with the integrity rules the stop uses, on the change the
// call would make, and says whether the host should refuse it. It runs no gate, and no git
// process unless the edit touches what a rule reads and the rules find something in it.
package preedit

import (
	"encoding/json"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// Kind is what a tool call does, as far as the guard is concerned.
type Kind int

const (
	// Other is every call the guard lets through unread (reading, searching, ...).
	Other Kind = iota
	// Write replaces (or creates) a file's whole content.
	Write
	// Edit replaces strings in a file.
	Edit
	// Shell runs a command line.
	Shell
	// Patch applies a patch to any number of files (Codex's apply_patch): the patch is in
	// Command, and PatchCalls reads it as one Write or Edit per file.
	Patch
)

// toolKinds maps the hosts' tool names to what they do: Claude Code (and the hosts that copy
// its dialect), Gemini CLI, Copilot CLI, Droid and Codex (Bash, apply_patch).
var toolKinds = map[string]Kind{
	"Write": Write, "write_file": Write, "create": Write, "Create": Write,
	"Edit": Edit, "MultiEdit": Edit, "replace": Edit, "edit": Edit,
	"Bash": Shell, "run_shell_command": Shell, "bash": Shell, "Execute": Shell,
	"apply_patch": Patch,
}

// Call is one tool call, read from the host's payload.
type Call struct {
	Tool    string
	Kind    Kind
	Path    string // the file written or edited, as the host sent it
	Content string // Write: the whole new content
	Edits   []Replace
	Command string // Shell
	Dir     string // where the agent works (the payload's cwd)
	Session string
}

// Replace is one string replacement of an Edit.
type Replace struct {
	Old, New string
	All      bool
}

// CallOf reads the tool call from a PreToolUse-style payload.
func CallOf(p stophook.Payload) Call {
	c := Call{Tool: p.ToolName, Dir: p.Cwd, Session: p.Session()}
	raw := p.ToolInput
	if c.Tool == "" {
		c.Tool, raw = p.CopilotToolName, p.CopilotToolArgs
	}
	c.Kind = toolKinds[c.Tool]
	if c.Kind == Other {
		return c
	}
	args := argsOf(raw)
	c.Path = firstString(args, "file_path", "path", "absolute_path")
	switch c.Kind {
	case Write:
		c.Content = firstString(args, "content", "file_text")
	case Edit:
		c.Edits = editsOf(args)
	case Shell, Patch:
		c.Command = firstString(args, "command")
	}
	if c.Kind == Patch {
		return c
	}
	if c.Kind != Shell && c.Path == "" || c.Kind == Edit && len(c.Edits) == 0 {
		return Call{Tool: c.Tool, Dir: c.Dir, Session: c.Session} // nothing the guard can apply
	}
	return c
}

// argsOf decodes a tool's arguments: an object, or (Copilot) a JSON string holding one.
func argsOf(raw json.RawMessage) map[string]json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return nil
	}
	return args
}

// firstString is the first of keys that holds a string.
func firstString(args map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		var s string
		if json.Unmarshal(args[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// editsOf reads the replacements of an Edit (old_string/new_string; Copilot's and Droid's
// old_str/new_str)
// or of a MultiEdit (edits[]).
func editsOf(args map[string]json.RawMessage) []Replace {
	var list []map[string]json.RawMessage
	if json.Unmarshal(args["edits"], &list) == nil && len(list) > 0 {
		out := make([]Replace, 0, len(list))
		for _, e := range list {
			out = append(out, replaceOf(e))
		}
		return out
	}
	if _, ok := args["old_string"]; !ok {
		if _, ok := args["old_str"]; !ok {
			return nil
		}
	}
	return []Replace{replaceOf(args)}
}

func replaceOf(args map[string]json.RawMessage) Replace {
	r := Replace{Old: rawString(args, "old_string", "old_str"), New: rawString(args, "new_string", "new_str")}
	var n int
	r.All = rawBool(args, "replace_all", "change_all") ||
		json.Unmarshal(args["expected_replacements"], &n) == nil && n > 1
	return r
}

// rawBool says whether any of keys holds true (Claude Code's and Qwen Code's replace_all,
// Droid's change_all).
func rawBool(args map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		var b bool
		if json.Unmarshal(args[k], &b) == nil && b {
			return true
		}
	}
	return false
}

// rawString is firstString that keeps an empty string (an edit that deletes).
func rawString(args map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		var s string
		if json.Unmarshal(args[k], &s) == nil {
			return s
		}
	}
	return ""
}

// Apply is the file's content once the call ran on current (exists false: there is no file);
// ok is false when the call would fail on it (a string to replace that is not there), which the
// host then reports itself.
func (c Call) Apply(current []byte, exists bool) (next []byte, ok bool) {
	switch c.Kind {
	case Write:
		return []byte(c.Content), true
	case Edit:
		s := string(current)
		for _, r := range c.Edits {
			switch {
			case r.Old == "" && !exists && s == "":
				s = r.New // an edit with nothing to replace creates the file
			case r.Old == "" || !strings.Contains(s, r.Old):
				return nil, false
			case r.All:
				s = strings.ReplaceAll(s, r.Old, r.New)
			default:
				s = strings.Replace(s, r.Old, r.New, 1)
			}
		}
		return []byte(s), true
	}
	return nil, false
}

// HostOf is the host whose dialect a pre-edit payload speaks, when --host says auto.
func HostOf(p stophook.Payload) hosts.Name {
	switch {
	case p.CopilotToolName != "":
		return hosts.Copilot
	case p.HookEventName == "BeforeTool":
		return hosts.Gemini
	}
	return stophook.DetectHost(p)
}
