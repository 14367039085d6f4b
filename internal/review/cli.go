package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Built-in reviewers; any other cli value is a shell command.
const (
	CLIClaude = "claude"
	CLICodex  = "codex"
	CLIGemini = "gemini"
)

// shortInstruction is the only prompt text that goes into argv, for the CLIs that want one
// there; the real instructions and the diff follow on stdin.
const shortInstruction = "Review the code change given on stdin, following the instructions there, " +
	"and answer with only the JSON verdict they describe."

// reviewer knows how one CLI is asked for a review and how its answer is read.
type reviewer interface {
	// name is how messages refer to the reviewer.
	name() string
	argv() []string
	// answer finds the verdict in what the CLI printed, or says in a few words why there is none.
	answer(exitCode int, output []byte) (*Verdict, string)
	// said is the model's answer as the CLI reported it (Claude's result, Gemini's response,
	// Codex's last message), or "" when it reported none: kept when there is no verdict.
	said(output []byte) string
}

// noVerdictIn is the cause when the model answered without a verdict: what it said, on one line.
func noVerdictIn(answer string) string {
	if strings.TrimSpace(answer) == "" {
		return "its answer was empty"
	}
	return `no parseable verdict in its answer: "` + oneLine(answer) + `"`
}

// newReviewer picks the adapter for cli. Codex needs files for its schema and its last message,
// Gemini for its settings and policy; they go into tempDir, which the caller creates and
// removes. dir is where the reviewer runs and env the gate's environment.
func newReviewer(cli, model, tempDir, dir string, env []string) (reviewer, error) {
	switch cli {
	case CLIClaude:
		return claudeCLI{model: model}, nil
	case CLICodex:
		schema := filepath.Join(tempDir, "verdict.schema.json")
		if err := os.WriteFile(schema, []byte(verdictSchema), 0o600); err != nil {
			return nil, fmt.Errorf("write codex output schema: %w", err)
		}
		return codexCLI{model: model, schema: schema, lastMessage: filepath.Join(tempDir, "last-message.txt")}, nil
	case CLIGemini:
		setup, err := prepareGemini(tempDir, dir, env)
		if err != nil {
			return nil, fmt.Errorf("gemini review settings: %w", err)
		}
		return geminiCLI{model: model, setup: setup}, nil
	default:
		return customCLI{command: cli}, nil
	}
}

// claudeCLI is Claude Code in print mode: JSON envelope, the verdict held to a schema, only the
// read-only tools, no MCP servers and no hooks (the user's own stop hook would gate the
// reviewer), and its own permission rules denying those tools the files that look secret
// (anywhere on disk: the rules are absolute) and the environment of every process (/proc).
type claudeCLI struct{ model string }

func (claudeCLI) name() string { return CLIClaude }

func (c claudeCLI) argv() []string {
	argv := []string{"claude", "-p", "--output-format", "json", "--json-schema", verdictSchema,
		"--tools", "Read,Grep,Glob", "--strict-mcp-config", "--settings", claudeSettings()}
	if c.model != "" {
		argv = append(argv, "--model", c.model)
	}
	return argv
}

// claudeSettings are the review's own settings, layered over the user's without touching them:
// hooks off, and Read denied (Claude Code applies Read rules to Grep and Glob too) on every file
// the secret rules name and on /proc.
func claudeSettings() string {
	var deny []string
	for _, g := range secretGlobs() {
		deny = append(deny, "Read(//"+g+")")
	}
	deny = append(deny, "Read(//proc/**)")
	data, _ := json.Marshal(map[string]any{"disableAllHooks": true, "permissions": map[string]any{"deny": deny}})
	return string(data)
}

// claudeEnvelope is the single JSON object `claude -p --output-format json` prints last.
type claudeEnvelope struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsError          bool            `json:"is_error"`
	Result           string          `json:"result"`
	StructuredOutput json.RawMessage `json:"structured_output"`
}

func (claudeCLI) answer(exitCode int, output []byte) (*Verdict, string) {
	env, ok := findClaudeEnvelope(output)
	switch {
	case !ok && exitCode != 0:
		return nil, cliFailure(exitCode, output)
	case !ok:
		return nil, noResult(output, "no JSON result")
	case env.IsError || !strings.HasPrefix(env.Subtype, "success"):
		// Not logged in, usage limit, API errors: Claude Code still prints its envelope, with
		// the message as the result and exit status 0 or 1.
		if cause := strings.TrimSpace(env.Result); cause != "" {
			return nil, cause
		}
		return nil, "claude reported " + env.Subtype
	}
	if v, ok := parseVerdict(env.StructuredOutput); ok {
		return v, ""
	}
	if v, ok := ExtractVerdict(env.Result); ok {
		return v, ""
	}
	return nil, noVerdictIn(env.Result)
}

func (claudeCLI) said(output []byte) string {
	env, _ := findClaudeEnvelope(output)
	return env.Result
}

func findClaudeEnvelope(output []byte) (claudeEnvelope, bool) {
	lines := bytes.Split(output, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		line := bytes.TrimSpace(lines[i])
		if !bytes.HasPrefix(line, []byte("{")) {
			continue
		}
		var env claudeEnvelope
		if json.Unmarshal(line, &env) == nil && env.Type == "result" {
			return env, true
		}
	}
	return claudeEnvelope{}, false
}

// codexCLI is `codex exec` under a read-only permission profile of its own that also denies
// reading the files that look secret, with hooks off and a shell that inherits only the core of
// the environment (no provider key). Its progress, including the prompt, goes to stderr, so the
// answer is read from the --output-last-message file instead of the output.
type codexCLI struct{ model, schema, lastMessage string }

func (codexCLI) name() string { return CLICodex }

// codexProfile is the name of the permission profile the review defines on the command line.
const codexProfile = "gauntlet-review"

// codexGlobDepth bounds how deep Codex's Linux sandbox looks for files matching a deny glob
// before it starts a command.
const codexGlobDepth = 12

func (c codexCLI) argv() []string {
	argv := []string{"codex", "exec",
		"-c", `default_permissions="` + codexProfile + `"`,
		"-c", `permissions.` + codexProfile + `.extends=":read-only"`,
		"-c", "permissions." + codexProfile + ".filesystem=" + codexFilesystem(),
		"-c", "shell_environment_policy.inherit=core",
		"--disable", "hooks",
		"--output-schema", c.schema, "--output-last-message", c.lastMessage}
	if c.model != "" {
		argv = append(argv, "--model", c.model)
	}
	return append(argv, shortInstruction)
}

// codexFilesystem is the profile's filesystem table as TOML: the workspace readable, the
// secret globs in it unreadable.
func codexFilesystem() string {
	var b strings.Builder
	b.WriteString(`{":workspace_roots"={"."="read"`)
	for _, g := range secretGlobs() {
		fmt.Fprintf(&b, ",%s=\"none\"", strconv.Quote(g))
	}
	fmt.Fprintf(&b, "},glob_scan_max_depth=%d}", codexGlobDepth)
	return b.String()
}

func (c codexCLI) answer(exitCode int, output []byte) (*Verdict, string) {
	if exitCode != 0 {
		return nil, cliFailure(exitCode, output)
	}
	last := readSmallFile(c.lastMessage)
	if v, ok := ExtractVerdict(string(last)); ok {
		return v, ""
	}
	if len(bytes.TrimSpace(last)) == 0 {
		// Codex says so in a warning of its own, before its token footer.
		if line := lineContaining(output, "no last agent message"); line != "" {
			return nil, "no final message: " + line
		}
		return nil, noResult(output, "no final message")
	}
	return nil, noVerdictIn(string(last))
}

func (c codexCLI) said(output []byte) string { return string(readSmallFile(c.lastMessage)) }

// lineContaining is the last line of output that contains s, on one line; "" when none does.
func lineContaining(output []byte, s string) string {
	lines := strings.Split(string(termtext.Strip(nil, output)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], s) {
			return oneLine(lines[i])
		}
	}
	return ""
}

// geminiCLI is Gemini CLI headless with JSON output; it reads stdin before the -p prompt. Its
// default approval mode keeps every tool that writes or runs commands out of a headless run; the
// review's own settings and policy (prepareGemini) turn hooks off and keep secret files from its
// tools, and --skip-trust trusts the folder for this run only.
type geminiCLI struct {
	model string
	setup geminiSetup
}

func (geminiCLI) name() string { return CLIGemini }

func (c geminiCLI) argv() []string {
	argv := []string{"gemini", "--output-format", "json", "--approval-mode", "default", "--skip-trust", "--policy", c.setup.policy}
	if c.model != "" {
		argv = append(argv, "--model", c.model)
	}
	return append(argv, "-p", shortInstruction)
}

func (geminiCLI) answer(exitCode int, output []byte) (*Verdict, string) {
	obj := lastJSONObject(output, "response", "error")
	if cause := geminiError(obj["error"]); cause != "" {
		return nil, cause
	}
	if exitCode != 0 {
		return nil, cliFailure(exitCode, output)
	}
	var response string
	if obj == nil || json.Unmarshal(obj["response"], &response) != nil {
		return nil, noResult(output, "no JSON result")
	}
	if v, ok := ExtractVerdict(response); ok {
		return v, ""
	}
	return nil, noVerdictIn(response)
}

func (geminiCLI) said(output []byte) string {
	var response string
	if obj := lastJSONObject(output, "response"); obj != nil {
		_ = json.Unmarshal(obj["response"], &response)
	}
	return response
}

// geminiError reads {"type":..., "message":..., "code":...}; "" when there is no error.
func geminiError(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return oneLine(string(raw))
	}
	if e.Message != "" {
		return oneLine(e.Message)
	}
	return "gemini reported " + e.Type
}

// customCLI is any other command, run with the default shell (sh -c; on Windows Git for
// Windows' sh, else cmd); it reads the whole prompt on stdin and prints its verdict.
type customCLI struct{ command string }

func (customCLI) name() string { return "the custom reviewer" }

func (c customCLI) argv() []string {
	argv, err := oscmd.ShellArgv(oscmd.Local(), oscmd.ShellDefault, c.command)
	if err != nil {
		// The default shell always resolves (cmd.exe at the last); keep the Unix form anyway.
		return []string{"/bin/sh", "-c", c.command}
	}
	return argv
}

// said is "": a custom reviewer's output is its answer, and its end is kept anyway.
func (customCLI) said([]byte) string { return "" }

func (customCLI) answer(exitCode int, output []byte) (*Verdict, string) {
	if v, ok := ExtractVerdict(string(output)); ok {
		return v, ""
	}
	if exitCode != 0 {
		return nil, cliFailure(exitCode, output)
	}
	return nil, noResult(output, "no parseable verdict")
}

func cliFailure(exitCode int, output []byte) string {
	msg := fmt.Sprintf("exit status %d", exitCode)
	if line := telltaleLine(output); line != "" {
		msg += ": " + line
	}
	return msg
}

// noResult says what was missing, or that nothing at all was printed.
func noResult(output []byte, missing string) string {
	if len(bytes.TrimSpace(output)) == 0 {
		return "it printed nothing"
	}
	if line := telltaleLine(output); line != "" {
		return missing + " in its output: " + line
	}
	return missing + " in its output"
}

// readSmallFile reads the start of a file the reviewer wrote, without blocking on a FIFO swapped
// in for it and for a few seconds at most.
func readSmallFile(path string) []byte {
	f, _, err := safefile.Open(path, time.Now().Add(5*time.Second))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, MaxOutputBytes))
	return data
}
