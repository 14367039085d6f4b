package stophook

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// Any bytes on stdin give a payload or an error, promptly (a reader that has all its input
// cannot make ReadPayload wait), and a payload always maps to a known host.
func FuzzReadPayload(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s1","transcript_path":"/tmp/t.jsonl","hook_event_name":"Stop","stop_hook_active":false}`,
		`{"session_id":"s","turn_id":"t","model":"gpt-5","cwd":"/x"}`,
		`{"hook_event_name":"stop","loop_count":1,"workspace_roots":["/a","/b"],"conversation_id":"c"}`,
		`{"hook_event_name":"AfterAgent","session_id":"g","timestamp":"2026-01-01T00:00:00Z"}`,
		`{"sessionId":"c","stopReason":"end_turn","transcriptPath":"/t","cwd":"."}`,
		`{"session_id":1,"transcript_path":null,"loop_count":"x","workspace_roots":{}}`,
		`{"session_id":"\u0000\ud800"}  trailing`, `[]`, `"str"`, `{`, ``, `   `, `{"a":` + strings.Repeat("[", 100),
		`{"prompt_id":"` + strings.Repeat("p", 1000) + `"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPayload(struct{ io.Reader }{bytes.NewReader(data)}, time.Minute)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		h := DetectHost(p)
		if _, ok := ParseHost(string(h)); !ok {
			t.Errorf("DetectHost = %q, not a host", h)
		}
		_ = p.Dir(func(string) string { return "" }, "/cwd")
		_, _, _ = p.Session(), p.Prompt(), p.Transcript()
	})
}

// fuzzSecretVars are the variables FuzzBlockReason hides; the fuzzer picks their values.
var fuzzSecretVars = []string{"API_TOKEN", "DB_PASSWORD", "EXTRA"}

// Whatever the gates are called and print, and whatever the secrets are, the reason never holds
// a secret value, stays within MaxReasonBytes, and its encoded reply is exactly one JSON object.
func FuzzBlockReason(f *testing.F) {
	f.Add("test", "exit status 1", "--- FAIL: TestX\n    x_test.go:3: got 1", "Run go test", "ghp_abcdef123456", "hunter22", "s3cr3t\nline2", 1)
	f.Add("lint\x1b[31m", "\x07bell", strings.Repeat("ghp_abcdef123456 ", 600), "hint ghp_abcdef123456", "ghp_abcdef123456", "31999", "subprocess", 3)
	f.Add("", "", "", "", "", "", "", 0)
	f.Add("a", "r", "tok\x1b[0men\r\npart2 token", "h", "token", "  spaced  secret  ", "two  words\there", 40)
	f.Add("x", "REDACTED", "[REDACTED] and ED]abc", "[RED", "ED]abcdef", "[REDACTEDx", "REDACTED", 2)
	f.Fuzz(func(t *testing.T, name, reason, tail, hint, s1, s2, s3 string, n int) {
		values := []string{s1, s2, s3}
		env := make([]string, len(values))
		for i, v := range values {
			env[i] = fuzzSecretVars[i] + "=" + v
		}
		secrets := redact.New(redact.Rules{Names: []string{"EXTRA"}}, env)
		n = min(max(n, 0), 50)
		results := make([]gates.Result, max(n, 1))
		for i := range results {
			results[i] = gates.Result{
				Name: name + strings.Repeat("x", i), Status: gates.StatusFail, ExitCode: i % 3,
				Reason: reason, Tail: tail, Hint: hint, Log: ".gauntlet/logs/r/" + name + ".log",
			}
		}
		got := BlockReason(results, len(results)+n, Attempt{N: 1, Max: 3}, secrets)
		if len(got) > MaxReasonBytes {
			t.Fatalf("reason is %d bytes, more than %d", len(got), MaxReasonBytes)
		}
		assertNoSecret(t, "reason", got, values)

		for _, h := range Hosts() {
			out := Encode(h, Reply{Verdict: Block, Reason: got, Secrets: secrets})
			if len(out) > 0 {
				assertOneJSONObject(t, h, out, values)
			}
			out = Encode(h, Reply{Verdict: Notify, Message: "gauntlet: " + reason + " " + tail, Secrets: secrets})
			if len(out) > 0 {
				assertOneJSONObject(t, h, out, values)
			}
		}
	})
}

// assertNoSecret fails when text holds a secret value in any form the redactor hides. Marks are
// blanked first: a secret that only appears by running into a mark ("ED]x" after "[REDACTED]")
// was not in the text shown, it is made of the mark.
func assertNoSecret(t *testing.T, what, text string, values []string) {
	t.Helper()
	shown := strings.ReplaceAll(text, redact.Mark, "\x00")
	for _, v := range values {
		for _, form := range []string{v, strings.TrimSpace(v)} {
			if redact.SecretValue(form) && strings.Contains(shown, form) {
				t.Fatalf("%s holds the secret %q:\n%s", what, form, text)
			}
		}
	}
}

func assertOneJSONObject(t *testing.T, h Host, out []byte, values []string) {
	t.Helper()
	if !utf8.Valid(out) || !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
		t.Fatalf("%s: reply %q is not one line of UTF-8", h, out)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var obj map[string]string
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s: reply %q: %v", h, out, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("%s: reply %q holds more than one JSON value", h, out)
	}
	for k, v := range obj {
		if len(v) > MaxReasonBytes {
			t.Fatalf("%s: %s is %d bytes", h, k, len(v))
		}
		assertNoSecret(t, string(h)+" "+k, v, values)
	}
}
