package stophook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/redact"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestEncodeExactBytes(t *testing.T) {
	block := Reply{Verdict: Block, Reason: "fix <x> & \"y\"\nnow"}
	notify := Reply{Verdict: Notify, Message: "gauntlet: passed with warnings"}
	allow := Reply{Verdict: Allow}
	const blockReason = `"fix <x> & \"y\"\nnow"`
	tests := []struct {
		host  Host
		reply Reply
		want  string // "" means an empty stdout
	}{
		{HostClaude, allow, ""},
		{HostClaude, block, `{"decision":"block","reason":` + blockReason + "}\n"},
		{HostClaude, notify, `{"systemMessage":"gauntlet: passed with warnings"}` + "\n"},
		{HostCodex, allow, ""},
		{HostCodex, block, `{"decision":"block","reason":` + blockReason + "}\n"},
		{HostCodex, notify, `{"systemMessage":"gauntlet: passed with warnings"}` + "\n"},
		{HostCopilot, allow, ""},
		{HostCopilot, block, `{"decision":"block","reason":` + blockReason + "}\n"},
		{HostCopilot, notify, ""},
		{HostCursor, allow, "{}\n"},
		{HostCursor, block, `{"followup_message":` + blockReason + "}\n"},
		{HostCursor, notify, "{}\n"},
		{HostGemini, allow, "{}\n"},
		{HostGemini, block, `{"decision":"deny","reason":` + blockReason + "}\n"},
		{HostGemini, notify, `{"systemMessage":"gauntlet: passed with warnings"}` + "\n"},
		{"", block, `{"decision":"block","reason":` + blockReason + "}\n"},
		{HostClaude, Reply{Verdict: Notify, Message: "  "}, ""},
		{HostGemini, Reply{Verdict: Notify}, "{}\n"},
		{HostClaude, Reply{Verdict: Verdict(42), Reason: "x", Message: "y"}, ""},
	}
	for _, tc := range tests {
		got := Encode(tc.host, tc.reply)
		if string(got) != tc.want {
			t.Errorf("Encode(%q, %+v) = %q, want %q", tc.host, tc.reply, got, tc.want)
		}
		if tc.want == "" && got != nil {
			t.Errorf("Encode(%q, %+v) = %q, want nil", tc.host, tc.reply, got)
		}
	}
}

func TestEncodeNeverBlocksWithoutAReason(t *testing.T) {
	for _, h := range Hosts() {
		for _, reason := range []string{"", " \n\t"} {
			var reply map[string]string
			if err := json.Unmarshal(Encode(h, Reply{Verdict: Block, Reason: reason}), &reply); err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			text := reply["reason"] + reply["followup_message"]
			if strings.TrimSpace(text) == "" {
				t.Errorf("%s: blank block reason in %v", h, reply)
			}
		}
	}
}

func TestEncodeNeverContinueNorApprove(t *testing.T) {
	for _, h := range Hosts() {
		for _, v := range []Verdict{Allow, Block, Notify} {
			out := Encode(h, Reply{Verdict: v, Reason: "r", Message: "m"})
			var keys map[string]any
			if out != nil {
				if err := json.Unmarshal(out, &keys); err != nil {
					t.Fatalf("%s/%d: %q is not JSON: %v", h, v, out, err)
				}
			}
			for k, val := range keys {
				if k == "continue" || val == "approve" {
					t.Errorf("%s/%d: forbidden %q: %v in %s", h, v, k, val, out)
				}
			}
		}
	}
}

// TestClaudeAndCodexRepliesMatchCodexSchema checks every Claude Code and Codex reply against the
// schemas Codex generates for its hooks: no extra key, "decision" only "block", a non-blank reason.
func TestClaudeAndCodexRepliesMatchCodexSchema(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{}
	for _, name := range []string{"stop", "subagent-stop"} {
		sch, err := jsonschema.NewCompiler().Compile("testdata/conformance/codex/" + name + ".command.output.schema.json")
		if err != nil {
			t.Fatalf("compiling the %s schema: %v", name, err)
		}
		schemas[name] = sch
	}
	replies := []Reply{
		{Verdict: Allow},
		{Verdict: Block, Reason: BlockReason(sampleFailures(), 5, Attempt{N: 2, Max: 3}, nil)},
		{Verdict: Block, Reason: ""},
		{Verdict: Block, Reason: "\n"},
		{Verdict: Notify, Message: "gauntlet: gates not run: lock held; stop allowed"},
		{Verdict: Notify, Message: ""},
	}
	for name, sch := range schemas {
		for _, h := range []Host{HostClaude, HostCodex} {
			for _, r := range replies {
				out := Encode(h, r)
				if out == nil {
					continue // an empty stdout means "no decision" to both hosts
				}
				if err := validate(sch, out); err != nil {
					t.Errorf("%s schema rejects %s reply %s: %v", name, h, out, err)
				}
			}
		}
		// The validator must be able to say no, or the checks above prove nothing.
		for _, bad := range []string{`{"decision":"block","reason":"  "}`, `{"decision":"approve"}`, `{"decision":"block"}`, `{"followup_message":"x"}`} {
			if validate(sch, []byte(bad)) == nil {
				t.Errorf("%s schema accepts %s", name, bad)
			}
		}
	}
}

func validate(sch *jsonschema.Schema, doc []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func TestEncodeCleansRedactsAndCaps(t *testing.T) {
	secrets := redact.New(redact.Rules{}, []string{"NPM_TOKEN=npm_secret_value"})
	dirty := "token npm_secret_value \x1b[31mred\x1b[0m bell\a nul\x00 c1\u009b cr\r\n"
	for _, h := range Hosts() {
		for _, r := range []Reply{
			{Verdict: Block, Reason: dirty, Secrets: secrets},
			{Verdict: Notify, Message: dirty, Secrets: secrets},
		} {
			out := Encode(h, r)
			if len(out) == 0 {
				continue
			}
			var reply map[string]string
			if err := json.Unmarshal(out, &reply); err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			for k, v := range reply {
				if k == "decision" {
					continue
				}
				if strings.Contains(v, "npm_secret_value") || strings.ContainsAny(v, "\x1b\a\x00\r\u009b") {
					t.Errorf("%s %s = %q: not clean or not redacted", h, k, v)
				}
				if !strings.Contains(v, "token [REDACTED] red bell nul c1") {
					t.Errorf("%s %s = %q: text lost", h, k, v)
				}
			}
		}
	}
}

func TestEncodeCapsTheMessage(t *testing.T) {
	long := "gauntlet: gates not run: " + strings.Repeat("tool (exit status 127: command not found), ", 300)
	var reply messageReply
	if err := json.Unmarshal(Encode(HostClaude, Reply{Verdict: Notify, Message: long}), &reply); err != nil {
		t.Fatal(err)
	}
	m := reply.SystemMessage
	if len(m) > MaxMessageBytes {
		t.Errorf("message is %d bytes, more than %d", len(m), MaxMessageBytes)
	}
	cut := len(strings.TrimSpace(long)) - len(m[:strings.LastIndex(m, " [...")])
	if want := fmt.Sprintf(" [... %s more characters cut]", groupDigits(cut)); !strings.HasSuffix(m, want) {
		t.Errorf("message ends %q, want the suffix %q", m[len(m)-60:], want)
	}
	if !strings.HasPrefix(m, "gauntlet: gates not run: tool (exit status 127") {
		t.Errorf("message starts %q", m[:60])
	}
	short := "gauntlet: passed with warnings"
	if got := Encode(HostClaude, Reply{Verdict: Notify, Message: short}); string(got) != `{"systemMessage":"gauntlet: passed with warnings"}`+"\n" {
		t.Errorf("short message changed: %s", got)
	}
}
