package preedit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxReasonBytes bounds the reason: the host puts it in the model's context.
const maxReasonBytes = 4000

// Reason is the message the agent reads when the call is refused (or, in warn mode, let through):
// what the call would weaken, and the honest way forward.
func Reason(v Verdict) string {
	var b strings.Builder
	what, forward := "this edit would weaken the gates", "Fix the code rather than the check: keep the tests, assertions, lint rules and gate settings as they are."
	if v.Shell {
		what, forward = "this command would get around the checks", "Run it without the bypass and fix what the hooks report."
	}
	if v.Mode == config.PreEditWarn {
		fmt.Fprintf(&b, "gauntlet pre-edit: %s (allowed: stop_hook.pre_edit is warn; the stop will still judge it):\n", what)
	} else {
		fmt.Fprintf(&b, "gauntlet pre-edit: %s, so it was refused:\n", what)
	}
	for _, f := range v.Findings {
		fmt.Fprintf(&b, "- %s  [%s] %s\n", report.IntegrityPlace(f), f.Rule, termtext.Line(f.Message))
	}
	b.WriteString(forward)
	if v.Mode != config.PreEditWarn {
		b.WriteString(" If the user asked for exactly this, tell them gauntlet refused it: they can make the change themselves, or set stop_hook.pre_edit: warn.")
	}
	return termtext.Cap(b.String(), maxReasonBytes)
}

// Reply is what pre-edit prints for host: nothing (or the host's empty allow) to let the call
// run; the host's deny shape to refuse it; in warn mode, the host's way to show a warning
// while the call runs (none on Copilot CLI, whose preToolUse output has no such field: then
// nothing, and the warning goes to stderr only).
func Reply(host hosts.Name, v Verdict) []byte {
	spec, _ := hosts.Get(host)
	if len(v.Findings) == 0 {
		return []byte(spec.Reply.EmptyAllow)
	}
	reason := Reason(v)
	var out any
	switch {
	case v.Mode == config.PreEditWarn && host == hosts.Copilot:
		return nil
	case v.Mode == config.PreEditWarn && host == hosts.Gemini:
		out = map[string]any{"systemMessage": reason, "hookSpecificOutput": map[string]any{"additionalContext": reason}}
	case v.Mode == config.PreEditWarn:
		out = map[string]any{"systemMessage": reason,
			"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "additionalContext": reason}}
	case host == hosts.Gemini:
		out = map[string]any{"decision": "deny", "reason": reason}
	case host == hosts.Copilot:
		out = map[string]any{"permissionDecision": "deny", "permissionDecisionReason": reason}
	default:
		out = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return append(data, '\n')
}
