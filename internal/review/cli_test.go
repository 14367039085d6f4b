package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Answers as the real CLIs print them (abridged), for each way a review can end.
const (
	claudeOK = `{"type":"result","subtype":"success","is_error":false,"duration_ms":8123,"num_turns":2,` +
		`"result":"{\"status\":\"fail\",\"findings\":[]}","session_id":"s","total_cost_usd":0.01,` +
		`"structured_output":{"status":"fail","findings":[{"file":"a.go","line":2,"severity":"error","message":"m"}]}}`
	claudeResultOnly = `{"type":"result","subtype":"success","is_error":false,"result":"Review done.\n` +
		"```json\\n{\\\"status\\\":\\\"pass\\\",\\\"findings\\\":[]}\\n```" + `"}`
	claudeNoLogin = `{"type":"result","subtype":"success","is_error":true,"duration_ms":120,"num_turns":1,` +
		`"result":"Invalid API key · Please run /login","session_id":"s","total_cost_usd":0}`
	claudeLimit = `{"type":"result","subtype":"success","is_error":true,"result":"Claude AI usage limit reached|1767225600"}`
	claudeTurns = `{"type":"result","subtype":"error_max_turns","is_error":false,"num_turns":5}`
	geminiOK    = "Loaded cached credentials.\n{\n  \"response\": \"```json\\n{\\\"status\\\": \\\"pass\\\", \\\"findings\\\": []}\\n```\",\n" +
		"  \"stats\": {\"models\": {}}\n}\n"
	geminiQuota = "{\n  \"error\": {\n    \"type\": \"Error\",\n    \"message\": \"[API Error: Quota exceeded for quota metric 'Gemini 2.5 Pro Requests' and limit 'Gemini 2.5 Pro Requests per day']\",\n    \"code\": 1\n  }\n}\n"
	geminiAuth  = "Please set an Auth method in your /home/u/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA\n"
)

func TestAnswers(t *testing.T) {
	dir := t.TempDir()
	lastMessage := filepath.Join(dir, "last.txt")
	codex := codexCLI{lastMessage: lastMessage}
	tests := []struct {
		name        string
		rev         reviewer
		exitCode    int
		output      string
		lastMessage string // codex's --output-last-message file; "" leaves none
		wantStatus  string // "" when there is no verdict
		wantCause   string // a part of the cause
	}{
		{"claude structured output", claudeCLI{}, 0, "warning: something\n" + claudeOK, "", "fail", ""},
		{"claude verdict in the result text", claudeCLI{}, 0, claudeResultOnly, "", "pass", ""},
		{"claude not logged in", claudeCLI{}, 1, claudeNoLogin, "", "", "Invalid API key · Please run /login"},
		{"claude usage limit, exit 0", claudeCLI{}, 0, claudeLimit, "", "", "usage limit reached"},
		{"claude max turns", claudeCLI{}, 0, claudeTurns, "", "", "claude reported error_max_turns"},
		{"claude crash without envelope", claudeCLI{}, 1, "Error: something broke\n", "", "", "exit status 1: Error: something broke"},
		{"claude prints nothing", claudeCLI{}, 0, "", "", "", "it printed nothing"},
		{"claude answer without verdict", claudeCLI{}, 0, `{"type":"result","subtype":"success","is_error":false,"result":"LGTM"}`, "", "", "no parseable verdict"},
		{"codex last message", codex, 0, "codex progress on stderr, with an echoed {\"status\":\"fail\"}\n", `{"status":"pass","findings":[]}`, "pass", ""},
		{"codex usage limit", codex, 1, "[2026-01-01T00:00:00] ERROR: You've hit your usage limit. Upgrade to Pro or try again in 2 hours.\n", "", "", "usage limit"},
		{"codex not logged in", codex, 1, "Error: Not logged in. Run `codex login`.\n", "", "", "Not logged in"},
		{"codex no final message", codex, 0, "some progress\n", "", "", "no final message"},
		{"gemini response", geminiCLI{}, 0, geminiOK, "", "pass", ""},
		{"gemini quota", geminiCLI{}, 1, geminiQuota, "", "", "Quota exceeded"},
		{"gemini auth", geminiCLI{}, 1, geminiAuth, "", "", "Please set an Auth method"},
		{"gemini plain text", geminiCLI{}, 0, "hello\n", "", "", "no JSON result in its output: hello"},
		{"custom verdict", customCLI{}, 0, "thinking...\n{\"status\":\"fail\",\"findings\":[]}\n", "", "fail", ""},
		{"custom verdict with exit 1", customCLI{}, 1, "{\"status\":\"fail\",\"findings\":[]}\n", "", "fail", ""},
		{"custom failure", customCLI{}, 2, "reviewer: rate limit exceeded, retry later\nbye\n", "", "", "exit status 2: reviewer: rate limit exceeded"},
		{"custom prints nothing", customCLI{}, 0, "  \n", "", "", "it printed nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(lastMessage)
			if tt.lastMessage != "" {
				if err := os.WriteFile(lastMessage, []byte(tt.lastMessage), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			v, cause := tt.rev.answer(tt.exitCode, []byte(tt.output))
			switch {
			case tt.wantStatus == "" && v != nil:
				t.Errorf("got verdict %+v, want none (cause %q)", v, tt.wantCause)
			case tt.wantStatus != "" && (v == nil || v.Status != tt.wantStatus):
				t.Errorf("got verdict %+v cause %q, want status %s", v, cause, tt.wantStatus)
			case tt.wantStatus == "" && !strings.Contains(cause, tt.wantCause):
				t.Errorf("cause %q does not contain %q", cause, tt.wantCause)
			}
		})
	}
}

func TestArgvNeverCarriesThePrompt(t *testing.T) {
	dir := t.TempDir()
	for _, cli := range []string{CLIClaude, CLICodex, CLIGemini, "my-reviewer --strict"} {
		rev, err := newReviewer(cli, "some-model", dir, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		argv := rev.argv()
		joined := strings.Join(argv, "\x00")
		if strings.Contains(joined, "BEGIN DIFF") || strings.Contains(joined, DefaultPrompt[:30]) {
			t.Errorf("%s: argv carries the prompt: %q", cli, argv)
		}
		if cli != "my-reviewer --strict" && !slices.Contains(argv, "some-model") {
			t.Errorf("%s: model not passed: %q", cli, argv)
		}
	}
	claude, _ := newReviewer(CLIClaude, "", dir, dir, nil)
	for _, want := range []string{"-p", "--output-format", "--json-schema", "Read,Grep,Glob", "--settings"} {
		if !slices.Contains(claude.argv(), want) {
			t.Errorf("claude argv lacks %q: %q", want, claude.argv())
		}
	}
	var settings struct {
		DisableAllHooks bool
		Permissions     struct{ Deny []string }
	}
	if err := json.Unmarshal([]byte(claudeSettings()), &settings); err != nil || !settings.DisableAllHooks ||
		!slices.Contains(settings.Permissions.Deny, "Read(//**/.env*)") || !slices.Contains(settings.Permissions.Deny, "Read(//proc/**)") {
		t.Errorf("claude settings: %v %s", err, claudeSettings())
	}
	codex, _ := newReviewer(CLICodex, "", dir, dir, nil)
	joined := strings.Join(codex.argv(), " ")
	for _, want := range []string{`permissions.gauntlet-review.extends=":read-only"`, `"**/.env*"="none"`,
		"shell_environment_policy.inherit=core", "--disable hooks", "--output-schema"} {
		if !strings.Contains(joined, want) {
			t.Errorf("codex argv lacks %s: %s", want, joined)
		}
	}
	if schema, err := os.ReadFile(filepath.Join(dir, "verdict.schema.json")); err != nil || string(schema) != verdictSchema {
		t.Errorf("codex schema file: %v %q", err, schema)
	}
}

func TestNoVerdictNamesTheKindOfProblem(t *testing.T) {
	tests := []struct{ cause, want string }{
		{"Invalid API key · Please run /login", "no verdict from claude (not logged in): Invalid API key · Please run /login"},
		{"Claude AI usage limit reached|1767225600", "no verdict from claude (usage or rate limit): Claude AI usage limit reached|1767225600"},
		{"API Error: 529 Overloaded", "no verdict from claude (usage or rate limit): API Error: 529 Overloaded"},
		{"no parseable verdict in its answer", "no verdict from claude: no parseable verdict in its answer"},
	}
	for _, tt := range tests {
		j := noVerdict("claude", tt.cause, []byte("line one\nline two\n"))
		if j.Status != "error" || j.Reason != tt.want {
			t.Errorf("got %s %q, want error %q", j.Status, j.Reason, tt.want)
		}
		if last := j.Lines[len(j.Lines)-1]; last != tt.want || !slices.Contains(j.Lines, "  line two") {
			t.Errorf("lines %q: want the output's end, then the reason", j.Lines)
		}
	}
}

func TestGeminiPolicyDeniesSecretPaths(t *testing.T) {
	for _, tc := range []struct {
		path string
		deny bool
	}{
		{".env", true}, {"/p/proj/.env.local", true}, {"a/b/id_ed25519", true}, {"home/.ssh/config", true},
		{"keys/my-service-account.json", true}, {"certs/x.pem", true},
		{"main.go", false}, {"docs/environment.md", false}, {"src/id_gen.go", false}, {"package.json", false},
	} {
		args := `{"file_path":"` + tc.path + `"}`
		denied := false
		for _, p := range secretPathPatterns() {
			if regexp.MustCompile(p).MatchString(args) {
				denied = true
			}
		}
		if denied != tc.deny {
			t.Errorf("%s: denied %v, want %v", tc.path, denied, tc.deny)
		}
	}
}

// Gemini CLI drops a policy rule whose pattern has a quantified group (isSafeRegExp in its
// bundle): none of the review's may.
func TestGeminiPolicyPatternsAreSafeForGemini(t *testing.T) {
	nested := regexp.MustCompile(`\([^)]*[*+?{].*\)[*+?{]`)
	for _, p := range secretPathPatterns() {
		if nested.MatchString(p) || len(p) > 2048 {
			t.Errorf("Gemini CLI refuses %s", p)
		}
	}
}

// The review's Gemini home: the user's settings with hooks off and the ignore file added, the
// rest of the user's ~/.gemini linked, the trusted folders left out, the user's files untouched.
func TestGeminiHomeKeepsTheUsersSettingsUntouched(t *testing.T) {
	home, tmp, project := t.TempDir(), t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".gemini")
	os.MkdirAll(user, 0o700)
	settings := "{\n  // mine\n  \"security\": {\"auth\": {\"selectedType\": \"oauth-personal\"}},\n  \"hooksConfig\": {\"enabled\": true},\n}\n"
	os.WriteFile(filepath.Join(user, "settings.json"), []byte(settings), 0o600)
	os.WriteFile(filepath.Join(user, "oauth_creds.json"), []byte(`{"token":"t"}`), 0o600)
	os.WriteFile(filepath.Join(user, "trustedFolders.json"), []byte(`{}`), 0o600)
	setup, err := prepareGemini(tmp, project, []string{"HOME=" + home})
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(tmp, "home", ".gemini")
	if !slices.Contains(setup.env, "GEMINI_CLI_HOME="+filepath.Join(tmp, "home")) {
		t.Errorf("env %q", setup.env)
	}
	var got struct {
		Security    struct{ Auth struct{ SelectedType string } }
		HooksConfig struct{ Enabled bool }
		Context     struct {
			FileFiltering struct{ CustomIgnoreFilePaths []string }
		}
	}
	data, _ := os.ReadFile(filepath.Join(own, "settings.json"))
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Security.Auth.SelectedType != "oauth-personal" || got.HooksConfig.Enabled || len(got.Context.FileFiltering.CustomIgnoreFilePaths) != 1 {
		t.Errorf("review settings: %s", data)
	}
	if ignore := filepath.Join(project, got.Context.FileFiltering.CustomIgnoreFilePaths[0]); !strings.Contains(mustReadFile(t, ignore), "**/.env*") {
		t.Errorf("ignore file %s", ignore)
	}
	if creds, err := os.ReadFile(filepath.Join(own, "oauth_creds.json")); err != nil || string(creds) != `{"token":"t"}` {
		t.Errorf("sign-in not reachable: %v %q", err, creds)
	}
	if _, err := os.Lstat(filepath.Join(own, "trustedFolders.json")); err == nil {
		t.Errorf("the user's trusted folders are in the review's home")
	}
	if after := mustReadFile(t, filepath.Join(user, "settings.json")); after != settings {
		t.Errorf("the user's settings changed: %q", after)
	}
}

func mustReadFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
