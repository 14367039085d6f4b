// Package hosts is the one table of the agent hosts gauntlet gates: how each calls the stop hook
// and reads its reply, where its hook entry lives, its limits, and how it records the trust a
// project hook needs. Every fact names the source it was read from, so that a host's next
// release is checked against the same place. The stop hook, init, doctor and validate all read
// it; nothing else keeps host facts.
package hosts

import (
	"strings"
	"time"
)

// Name is a host as `--host` spells it.
type Name string

const (
	Claude  Name = "claude"
	Codex   Name = "codex"
	Cursor  Name = "cursor"
	Gemini  Name = "gemini"
	Copilot Name = "copilot"
	Qwen    Name = "qwen"
	Droid   Name = "droid"
)

// Host is everything gauntlet knows about one agent host.
type Host struct {
	Name    Name
	Display string // for people: "Claude Code"

	// The payload dialect.
	StopEvent     string // hook_event_name of a stop, and the key under "hooks" in the hook file
	SubagentEvent string // hook_event_name of a subagent's stop; "" when the host sends none
	// PromptID names the payload field that identifies the user's prompt; "" when the host
	// sends none, and gauntlet tells the turn from the prompt's text instead.
	PromptID string

	Reply Reply

	// AfterEdit are the hook entries that start a background judge after the agent's edits
	// (gauntlet after-edit), and stop it when the session ends; empty where the host has no such
	// event, or where gauntlet has not verified it.
	AfterEdit []EventHook

	// PreEdit are the hook entries that judge a proposed edit or shell command before it runs
	// (gauntlet pre-edit); empty where the host has no such event, or where gauntlet has not
	// verified how it names its editing tools.
	PreEdit []EventHook

	// Verified says how the facts above were checked: "" when a real CLI was driven in make
	// hosts-e2e, else what they were read from ("documentation only").
	Verified string

	// The hook entry.
	Hook HookFile

	// Limits.
	TimeoutKey string // the entry's key for its timeout, counted in TimeoutUnit
	// TimeoutAliases are other keys the host reads for the same timeout.
	TimeoutAliases []string
	TimeoutUnit    time.Duration
	// TimeoutMillisFrom, when set, is the value from which the host reads the timeout in
	// milliseconds rather than TimeoutUnit (Qwen Code keeps an older millisecond form so).
	TimeoutMillisFrom int
	// DefaultTimeout is what the host gives a hook whose entry sets none; 0 when unknown.
	DefaultTimeout time.Duration
	Cap            Cap

	Trust Trust
	// DisableKey is a settings key that turns every hook off; "" when the host has none.
	DisableKey string
	// DisableFiles are the settings files where DisableKey is read: "~/" for the home directory,
	// else relative to the project root.
	DisableFiles []string

	// Messages says where a user sees the hook's messages (retry limit, gates not run).
	Messages string

	// Sources says where each fact above was read, by fact.
	Sources []Source
}

// EventHook is one entry init writes besides the stop hook.
type EventHook struct {
	Event string // the key under "hooks"
	// Matcher selects the tools whose calls fire it (a regular expression of tool names); ""
	// for a lifecycle event.
	Matcher string
	// Args follow the program: "after-edit" or "after-edit --session-end".
	Args string
	// Timeout, when set, is the most the host allows this event's hooks (Codex clamps SessionEnd
	// hooks to 3 s, with a warning on every run when an entry asks for more).
	Timeout time.Duration
}

// Reply is how the host reads the stop hook's stdout.
type Reply struct {
	// BlockDecision is the "decision" of a block ("block", Gemini's "deny"); "" when the host
	// takes a follow-up message instead.
	BlockDecision string
	// FollowupKey holds the block reason when BlockDecision is "" (Cursor's followup_message).
	FollowupKey string
	// EmptyAllow is what an allow prints: nothing, or "{}" for a host that wants an object.
	EmptyAllow string
	// SystemMessage: the host shows {"systemMessage": ...} to the user when the stop is
	// allowed; without it, gauntlet writes the message to stderr only.
	SystemMessage bool
	// BlockOnly: the host reads stdout only when it blocks; every other reply is empty.
	BlockOnly bool
}

// Entry is the shape of gauntlet's entry in the host's hook file.
type Entry int

const (
	// CommandGroup is Claude Code's shape, which Codex and Gemini share: a matcher group holding
	// a list of {"type":"command","command":...,"timeout":...}.
	CommandGroup Entry = iota
	// FlatCommand is Cursor's: {"command":...,"loop_limit":...} directly in the event's list.
	FlatCommand
	// BashCommand is Copilot's: {"type":"command","bash":...,"timeoutSec":...}.
	BashCommand
)

// HookFile says where the host keeps its project hooks and how it reads the file.
type HookFile struct {
	// Files are relative to the repository root and slash-separated: the one init writes first,
	// then any other the host also reads. A "*" is a glob (Copilot reads .github/hooks/*.json).
	Files []string
	// Shared is the committed file init writes with --shared, when the host has a separate one.
	Shared string
	// Version: the file needs a top-level "version": 1.
	Version bool
	Entry   Entry
	// CommandKey is the entry's key for the command ("command", Copilot's "bash").
	CommandKey string
	// JSONC: the host reads the file with comments and trailing commas allowed.
	JSONC bool
}

// Cap is the host's own limit on consecutive blocks: past it the host ends the turn itself.
type Cap struct {
	Blocks int    // 0: no cap
	Key    string // an entry key that sets it per hook (Cursor's loop_limit)
	Env    string // an environment variable that overrides it (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)
	// Resets says what starts the count again.
	Resets string
	// OnBlock: the host ends the turn on its Blocks-th consecutive block itself rather than
	// after it (Qwen Code), so gauntlet may block one time fewer.
	OnBlock bool
}

// Allowed is how many consecutive blocks the host lets through when its cap is blocks.
func (c Cap) Allowed(blocks int) int {
	if c.OnBlock {
		return blocks - 1
	}
	return blocks
}

// TrustScope is which folders a trust record covers.
type TrustScope int

const (
	// NoTrust: the host runs project hooks without a trust step.
	NoTrust TrustScope = iota
	// ExactRoot: only a record for the project's own root counts; a parent folder's does not.
	ExactRoot
	// FolderAndBelow: a trusted folder trusts everything below it.
	FolderAndBelow
	// LongestRule: rules per folder (trust, trust the parent, do not trust); the longest rule
	// whose folder holds the project decides, matched on real paths (symlinks resolved).
	LongestRule
)

// Trust says how the host records the trust without which it runs no project hook.
type Trust struct {
	Scope TrustScope
	// Dir is the host's own directory ("~/.codex"), DirEnv the variable that moves it.
	Dir    string
	DirEnv string
	// File is the trust file, relative to Dir; FileEnv a variable naming the file itself.
	File    string
	FileEnv string
	// Format of File: "toml", "json" or "jsonc" (JSON with comments).
	Format string
	// Key is where in File the record is; OldKeys are older spellings still read.
	Key     string
	OldKeys []string
	// Values that grant trust, and those that refuse it, as written in File.
	Grants  []string
	Refuses []string
	// Env is a variable that decides trust over File ("true" trusts, "false" refuses).
	Env string
	// Setting turns trust checking on or off, in the host's user settings (SettingFile, under
	// Dir); DefaultOn is its value when unset.
	Setting     string
	SettingFile string
	DefaultOn   bool
	// HookTrust: each hook must also be trusted on its own, again after every change to it.
	HookTrust bool
	// How tells the user how to grant it.
	How string
}

// Source is where one fact was read.
type Source struct {
	Fact string
	From string
}

var table = []Host{
	{
		Name: Claude, Display: "Claude Code",
		StopEvent: "Stop", SubagentEvent: "SubagentStop", PromptID: "prompt_id",
		Reply:   Reply{BlockDecision: "block", SystemMessage: true},
		PreEdit: []EventHook{{Event: "PreToolUse", Matcher: "Write|Edit|MultiEdit|Bash", Args: "pre-edit"}},
		AfterEdit: []EventHook{
			{Event: "SessionStart", Args: "after-edit --session-start"},
			{Event: "PostToolUse", Matcher: "Edit|MultiEdit|Write|NotebookEdit|Bash", Args: "after-edit"},
			{Event: "SessionEnd", Args: "after-edit --session-end"},
		},
		Hook: HookFile{Files: []string{".claude/settings.local.json", ".claude/settings.json"},
			Shared: ".claude/settings.json", Entry: CommandGroup, CommandKey: "command"},
		TimeoutKey: "timeout", TimeoutUnit: time.Second, DefaultTimeout: 600 * time.Second,
		Cap: Cap{Blocks: 8, Env: "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
			Resets: "the agent uses a tool"},
		Trust: Trust{Scope: NoTrust,
			How: "Claude Code asks to trust the folder the first time it starts there; project hooks run only after that"},
		DisableKey:   "disableAllHooks",
		DisableFiles: []string{"~/.claude/settings.json", ".claude/settings.json", ".claude/settings.local.json"},
		Messages:     "systemMessage: shown in the interactive screen and in stream-json output only",
		Sources: []Source{
			{"reply", "SPEC §5.2; Claude Code hooks reference (Stop: decision block, reason, systemMessage)"},
			{"cap", `Claude Code 2.1.330 (npm @anthropic-ai/claude-code): "let cap = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP ?? 8; if (cap > 0 && count > cap)" ends the turn with "A hook blocked the turn from ending N consecutive times"`},
			{"cap reset", "issue 19, observed in Claude Code: the count of consecutive blocks starts again when the agent uses a tool"},
			{"disableAllHooks", "Claude Code 2.1.330 settings schema: disableAllHooks (user, project and local settings)"},
			{"timeout", "Claude Code hooks reference: timeout in seconds, 600 by default"},
			{"after-edit", "Claude Code hooks reference: SessionStart (session_id, cwd, source startup|resume|clear|compact), PostToolUse with a matcher on tool names (Edit, MultiEdit, Write, NotebookEdit, Bash), and SessionEnd"},
			{"session events", `Claude Code 2.1.332 driven in make hosts-e2e (TestClaudeSessionPin, TestClaudeSessionEndStopsTheJudge): claude -p sends SessionStart {"session_id","transcript_path","cwd","hook_event_name","source":"startup"} before the first turn and SessionEnd {"session_id","transcript_path","cwd","prompt_id","hook_event_name","reason":"other"} before it exits`},
			{"pre-edit", `Claude Code hooks reference (PreToolUse): tool_name with tool_input Write {file_path, content}, Edit {file_path, old_string, new_string, replace_all}, MultiEdit {file_path, edits[]}, Bash {command}; a deny is {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":R}}, the reason shown to the model; additionalContext in hookSpecificOutput is added to its context`},
			{"prompt_id", "Claude Code 2.1.332 driven in make hosts-e2e (TestClaudeStopPayloadFields): Stop sends prompt_id, background_tasks and session_crons (the work still running when the turn ends), beside session_id, cwd, transcript_path, permission_mode, effort, stop_hook_active and last_assistant_message"},
			{"version", "Claude Code 2.1.332, driven in make hosts-e2e"},
			{"pre-edit driven", "Claude Code 2.1.332 driven in make hosts-e2e (TestClaudePreEditDeniesWeakening): a Write dropping a test and a Bash git commit --no-verify are denied by gauntlet pre-edit before they run, and the model's next request carries the reason"},
		},
	},
	{
		Name: Codex, Display: "Codex",
		StopEvent: "Stop", PromptID: "turn_id",
		Reply:      Reply{BlockDecision: "block", SystemMessage: true},
		Hook:       HookFile{Files: []string{".codex/hooks.json"}, Entry: CommandGroup, CommandKey: "command"},
		TimeoutKey: "timeout", TimeoutUnit: time.Second, DefaultTimeout: 600 * time.Second,
		Trust: Trust{Scope: ExactRoot, Dir: "~/.codex", DirEnv: "CODEX_HOME", File: "config.toml", Format: "toml",
			Key: `projects."ROOT".trust_level`, Grants: []string{"trusted"}, Refuses: []string{"untrusted"},
			HookTrust: true,
			How:       `trust the project (answer yes when codex asks, run "codex exec --trust" once in it, or add [projects."ROOT"] trust_level = "trusted" to ~/.codex/config.toml), then review and trust the hook in codex's /hooks screen (again after every change to it)`},
		// No matcher: every tool's call is cheap to judge (a tool that edits nothing is let
		// through unread), and Codex names its tools apply_patch and Bash.
		PreEdit: []EventHook{{Event: "PreToolUse", Args: "pre-edit"}},
		// No matcher: Codex names exec_command "Bash" in PostToolUse, but how it names its other
		// editing tools is not verified, and an after-edit call is cheap.
		AfterEdit: []EventHook{
			{Event: "SessionStart", Args: "after-edit --session-start"},
			{Event: "PostToolUse", Args: "after-edit"},
			{Event: "SessionEnd", Args: "after-edit --session-end", Timeout: 3 * time.Second},
		},
		Messages: `systemMessage: codex exec prints only "hook: Stop Completed"`,
		Sources: []Source{
			{"after-edit", `Codex 0.169.0, driven in make hosts-e2e: a PostToolUse hook runs after exec_command with {"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":...},"session_id","turn_id","cwd",...}; SessionEnd runs at the end of codex exec with {"hook_event_name":"SessionEnd","reason":"other",...}, its timeout clamped to 3 s ("clamping SessionEnd hook timeout to 3s"); each hook needs its own trust, like the stop hook`},
			{"session-start", `Codex's hook input schema (codex-rs/hooks/schema/generated/session-start.command.input.schema.json): SessionStart sends {"session_id","transcript_path" (null before the first turn is written),"cwd","hook_event_name","model","permission_mode","source":"startup"|"resume"|"clear"}; issue 40: codex exec fires it with source startup`},
			{"session payloads", `Codex's SessionStart and SessionEnd carry no turn_id (session-end.command.input.schema.json: session_id, transcript_path, cwd, hook_event_name, reason "other"): --host auto tells them by the transcript, rollout-*.jsonl or null; init writes --host codex on every entry`},
			{"session events", `Codex 0.171.0 driven in make hosts-e2e (TestCodexSessionPin, TestCodexSessionEndStopsTheJudge): codex exec sends SessionStart {"session_id","transcript_path":".../sessions/YYYY/MM/DD/rollout-*.jsonl","cwd","hook_event_name","model","permission_mode","source":"startup"} before the first turn, and SessionEnd {"session_id","transcript_path","cwd","hook_event_name","reason":"other"} before it exits`},
			{"reply", "../shared/conformance/codex/stop.command.output.schema.json"},
			{"trust", "issue 19, observed in Codex: a trust_level recorded on a parent folder is not accepted; the hook needs [hooks.state.\"FILE:stop:GROUP:INDEX\"] trusted_hash"},
			{"version", "Codex 0.171.0, driven in make hosts-e2e (trust states, after-edit)"},
			{"pre-edit", `Codex 0.171.0 driven in make hosts-e2e (TestCodexPreEditDeniesWeakening, model gpt-5.5, whose apply_patch is a freeform tool): PreToolUse fires before apply_patch with {"tool_name":"apply_patch","tool_input":{"command":PATCH}} and before exec_command with tool_name Bash {command}, beside session_id, turn_id, model, cwd, transcript_path, permission_mode, tool_use_id; {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":R}} refuses the tool (a deny without a reason is an error), and the model's next request carries R. With a model Codex has no metadata for, it offers no apply_patch tool at all`},
			{"hook trust status", `Codex 0.169.0 (npm @openai/codex): "codex app-server" answers "hooks/list" with trustStatus managed|untrusted|trusted|modified per hook (app-server generate-json-schema, HooksListResponse)`},
		},
	},
	{
		Name: Cursor, Display: "Cursor",
		StopEvent: "stop",
		Reply:     Reply{FollowupKey: "followup_message", EmptyAllow: "{}"},
		Hook: HookFile{Files: []string{".cursor/hooks.json"}, Version: true, Entry: FlatCommand,
			CommandKey: "command"},
		TimeoutKey: "timeout", TimeoutUnit: time.Second,
		Cap:      Cap{Blocks: 5, Key: "loop_limit"},
		Trust:    Trust{Scope: NoTrust, How: "Cursor runs project hooks without a trust step"},
		Messages: "Cursor shows no message from a stop hook that allows; gauntlet writes it to stderr",
		Sources: []Source{
			{"reply", "Cursor hooks documentation: stop returns {\"followup_message\"}, loop_limit caps follow-ups (5 by default)"},
			{"pre-edit", `not installed: Cursor's beforeShellExecution (the command at the payload's top level) answers {"permission":"allow"|"deny"|"ask"}; write-ups disagree on whether an answer without permission allows, and "allow" would skip the user's own approval of each command. Cursor is not on npm, so nothing was driven; the stop judges its edits`},
		},
	},
	{
		Name: Gemini, Display: "Gemini CLI",
		StopEvent: "AfterAgent",
		Reply:     Reply{BlockDecision: "deny", EmptyAllow: "{}", SystemMessage: true},
		PreEdit:   []EventHook{{Event: "BeforeTool", Matcher: "write_file|replace|run_shell_command", Args: "pre-edit"}},
		AfterEdit: []EventHook{
			{Event: "SessionStart", Args: "after-edit --session-start"},
			{Event: "AfterTool", Matcher: "write_file|replace|run_shell_command", Args: "after-edit"},
			{Event: "SessionEnd", Args: "after-edit --session-end"},
		},
		Hook: HookFile{Files: []string{".gemini/settings.json"}, Entry: CommandGroup, CommandKey: "command",
			JSONC: true},
		TimeoutKey: "timeout", TimeoutUnit: time.Millisecond, DefaultTimeout: 60 * time.Second,
		Trust: Trust{Scope: LongestRule, Dir: "~/.gemini", File: "trustedFolders.json",
			FileEnv: "GEMINI_CLI_TRUSTED_FOLDERS_PATH", Format: "jsonc",
			Grants: []string{"TRUST_FOLDER", "TRUST_PARENT"}, Refuses: []string{"DO_NOT_TRUST"},
			Env:     "GEMINI_CLI_TRUST_WORKSPACE",
			Setting: "security.folderTrust.enabled", SettingFile: "settings.json", DefaultOn: true,
			How: `start gemini in the project and choose "Trust folder" (kept in ~/.gemini/trustedFolders.json); an untrusted folder runs no project hook`},
		Messages: "systemMessage: Gemini CLI logs it at debug level only",
		Sources: []Source{
			{"settings with comments", "Gemini CLI 0.61.0 (npm @google/gemini-cli): settings and trustedFolders.json are read through strip-json-comments"},
			{"folder trust on by default", "Gemini CLI 0.61.0 packages/cli/src/config/trustedFolders.ts: isFolderTrustEnabled = settings.security.folderTrust.enabled ?? true"},
			{"trust rules", "Gemini CLI 0.61.0 packages/core/src/utils/trust.ts: isPathTrusted resolves real paths, TRUST_PARENT applies to the rule's parent, the longest rule path wins; GEMINI_CLI_TRUST_WORKSPACE=true|false decides first; GEMINI_CLI_TRUSTED_FOLDERS_PATH moves the file"},
			{"untrusted", "issue 19, observed in Gemini CLI 0.61: with no trustedFolders.json it refuses to run headless in the project (exit 55)"},
			{"timeout", "Gemini CLI hooks documentation: timeout in milliseconds, 60000 by default"},
			{"after-edit", "Gemini CLI hooks reference (geminicli.com/docs/hooks/reference): SessionStart, AfterTool with a matcher regex on tool names (write_file, replace, run_shell_command), and SessionEnd"},
			{"session payloads", `Gemini CLI hooks reference: every event sends session_id, transcript_path, cwd, hook_event_name and timestamp (ISO 8601); SessionStart adds source (startup|resume|clear), SessionEnd reason (exit|clear|logout|prompt_input_exit|other). SessionStart and SessionEnd are Claude Code's names too: --host auto tells Gemini's by the string timestamp, and init writes --host gemini on every entry (issue 40)`},
			{"session events", `Gemini CLI 0.61.0 driven in make hosts-e2e (TestGeminiSessionPin, TestGeminiSessionEndStopsTheJudge): gemini -p sends SessionStart {"session_id","transcript_path":".../chats/session-*.jsonl","cwd","hook_event_name","timestamp","source":"startup"} before the first turn, AfterTool after run_shell_command, and SessionEnd {...,"reason":"exit"} before it exits`},
			{"pre-edit", `Gemini CLI hooks reference: BeforeTool sends tool_name and tool_input (write_file {file_path, content}, replace {file_path, old_string, new_string}, run_shell_command {command}); {"decision":"deny","reason":R} blocks the tool and shows the reason to the agent`},
		},
	},
	{
		Name: Copilot, Display: "GitHub Copilot",
		StopEvent: "agentStop", SubagentEvent: "subagentStop",
		Reply: Reply{BlockDecision: "block", BlockOnly: true},
		Hook: HookFile{Files: []string{".github/hooks/gauntlet.json", ".github/hooks/*.json"}, Version: true,
			Entry: BashCommand, CommandKey: "bash"},
		TimeoutKey: "timeoutSec", TimeoutAliases: []string{"timeout"}, TimeoutUnit: time.Second,
		DefaultTimeout: 30 * time.Second,
		Cap:            Cap{Blocks: 8, Resets: "the user sends the next prompt"},
		Trust: Trust{Scope: FolderAndBelow, Dir: "~/.copilot", DirEnv: "COPILOT_HOME", File: "config.json",
			Format: "jsonc", Key: "trustedFolders", OldKeys: []string{"trusted_folders"},
			How: "start copilot in the folder and choose to trust it (kept in ~/.copilot/config.json, trustedFolders); repository hooks load only in a trusted folder"},
		// Copilot's hooks have no matcher: preToolUse runs before every tool.
		PreEdit: []EventHook{{Event: "preToolUse", Args: "pre-edit"}},
		// Copilot's hooks have no matcher: postToolUse runs after every tool.
		AfterEdit: []EventHook{
			{Event: "sessionStart", Args: "after-edit --session-start"},
			{Event: "postToolUse", Args: "after-edit"},
			{Event: "sessionEnd", Args: "after-edit --session-end"},
		},
		Messages: "Copilot drops a stop hook's messages; gauntlet writes them to stderr",
		Sources: []Source{
			{"after-edit", `Copilot CLI 1.0.102, driven in make hosts-e2e: a postToolUse hook runs after each tool call with {"sessionId","timestamp","cwd","toolName":"bash","toolArgs":{...},"toolResult":{...}}, and sessionEnd at the end of copilot -p with {"sessionId","timestamp","cwd","reason":"complete"}; sessionStart with {"sessionId","timestamp","cwd","source":"new","initialPrompt"} (driven in TestCopilotSessionPin)`},
			{"pre-edit", `GitHub Copilot CLI hooks reference: preToolUse sends {"sessionId","timestamp","cwd","toolName","toolArgs"} (tools bash, create, edit); {"permissionDecision":"deny","permissionDecisionReason":R} blocks the tool, the reason shown to the agent. The argument names of create and edit (path, file_text, old_str, new_str) are read from the tools' schema, not driven`},
			{"cap", "Copilot CLI changelog 1.0.72: a stop hook's consecutive blocks are capped at 8; driven in make hosts-e2e (1.0.102), it ends the turn after the 9th consecutive block"},
			{"trust", "Copilot CLI 1.0.102 driven in make hosts-e2e: in a folder not in trustedFolders, copilot -p loads no repository hook"},
			{"trust file", "issue 19, observed in Copilot CLI 1.0.x: ~/.copilot/config.json starts with a // comment header and records trustedFolders"},
			{"timeout alias", "issue 19, observed in Copilot CLI: a hook's \"timeout\" is read as \"timeoutSec\""},
		},
	},
	{
		Name: Qwen, Display: "Qwen Code",
		StopEvent: "Stop", SubagentEvent: "SubagentStop", PromptID: "prompt_id",
		Reply:   Reply{BlockDecision: "block", SystemMessage: true},
		PreEdit: []EventHook{{Event: "PreToolUse", Matcher: "write_file|edit|run_shell_command", Args: "pre-edit"}},
		// SessionEnd fires when an interactive session ends; qwen -p ends without it, and the
		// background judge then stops on its own.
		AfterEdit: []EventHook{
			{Event: "SessionStart", Args: "after-edit --session-start"},
			{Event: "PostToolUse", Matcher: "write_file|edit|run_shell_command", Args: "after-edit"},
			{Event: "SessionEnd", Args: "after-edit --session-end"},
		},
		Hook: HookFile{Files: []string{".qwen/settings.json"}, Entry: CommandGroup, CommandKey: "command",
			JSONC: true},
		TimeoutKey: "timeout", TimeoutUnit: time.Second, TimeoutMillisFrom: 1000, DefaultTimeout: 60 * time.Second,
		Cap: Cap{Blocks: 8, Env: "QWEN_CODE_STOP_HOOK_BLOCK_CAP", Resets: "the user sends the next prompt", OnBlock: true},
		Trust: Trust{Scope: NoTrust,
			How: "Qwen Code runs project hooks without a trust step unless security.folderTrust.enabled is set in its settings (off by default); then trust the folder when it asks (kept in ~/.qwen/trustedFolders.json)"},
		DisableKey:   "disableAllHooks",
		DisableFiles: []string{"~/.qwen/settings.json", ".qwen/settings.json"},
		Messages:     "systemMessage: shown to the user",
		Sources: []Source{
			{"hooks", "Qwen Code hooks documentation (docs/users/features/hooks.md, npm @qwen-code/qwen-code): hooks in .qwen/settings.json with Claude Code's events and dialect (Stop, SubagentStop, decision block with reason), disableAllHooks at the top level"},
			{"version", "Qwen Code 0.24.4, driven in make hosts-e2e against an OpenAI-compatible fake model (stop loop, own cap, pre-edit, session start)"},
			{"stop", `Qwen Code 0.24.4 driven in make hosts-e2e (TestQwenBlockContinueRelease): Stop sends {"session_id","transcript_path" (~/.qwen/projects/.../chats/ID.jsonl),"cwd","hook_event_name","timestamp" (ISO 8601),"permission_mode","prompt_id","stop_hook_active","last_assistant_message","background_tasks","crons","context_usage","context_limit","input_tokens"}; a block's reason is the next request's prompt`},
			{"cap", `Qwen Code 0.24.4 (packages/core, DEFAULT_STOP_HOOK_BLOCK_CAP = 8, QWEN_CODE_STOP_HOOK_BLOCK_CAP or the stopHookBlockingCap setting, 1 to 100): the Nth consecutive block of one prompt_id ends the turn ("Stop hook blocked continuation N consecutive times; overriding and ending the turn"); driven in make hosts-e2e (TestQwenOwnCap)`},
			{"timeout", "Qwen Code 0.24.4 packages/core/src/hooks/hook-timeout.ts: a command hook's timeout is in seconds, 60 by default; values of 1000 or more keep an older millisecond meaning"},
			{"trust", "Qwen Code 0.24.4 trustedFolders: isFolderTrustEnabled = settings.security.folderTrust.enabled ?? false; rules in ~/.qwen/trustedFolders.json (QWEN_CODE_TRUSTED_FOLDERS_PATH); driven in make hosts-e2e, hooks run in an unrecorded folder"},
			{"pre-edit", `Qwen Code 0.24.4 driven in make hosts-e2e (TestQwenPreEditDeniesWeakening): PreToolUse sends tool_name write_file {file_path, content}, edit {file_path, old_string, new_string, replace_all}, run_shell_command {command}, with session_id, cwd, prompt_id, tool_use_id; Claude Code's hookSpecificOutput deny refuses the tool and the model's next request carries the reason. Before writing an existing file, write_file wants it read in the session`},
			{"after-edit", `Qwen Code 0.24.4 driven in make hosts-e2e: SessionStart {"source":"startup","model",...} and PostToolUse (tool_input, tool_response) fire in qwen -p; SessionEnd only when an interactive session ends (and on /clear)`},
		},
	},
	{
		Name: Droid, Display: "Factory Droid",
		StopEvent: "Stop", SubagentEvent: "SubagentStop",
		Reply:   Reply{BlockDecision: "block", SystemMessage: true},
		PreEdit: []EventHook{{Event: "PreToolUse", Matcher: "Create|Edit|Execute", Args: "pre-edit"}},
		AfterEdit: []EventHook{
			{Event: "SessionStart", Args: "after-edit --session-start"},
			{Event: "PostToolUse", Matcher: "Create|Edit|Execute", Args: "after-edit"},
			{Event: "SessionEnd", Args: "after-edit --session-end"},
		},
		// Only .factory/settings.json: Droid reads .factory/hooks.json with the events at its top
		// level (no "hooks" object), and no hook from .factory/settings.local.json.
		Hook:       HookFile{Files: []string{".factory/settings.json"}, Entry: CommandGroup, CommandKey: "command"},
		TimeoutKey: "timeout", TimeoutUnit: time.Second, DefaultTimeout: 60 * time.Second,
		Trust:    Trust{Scope: NoTrust, How: "Droid runs the project's hooks without a trust step"},
		Messages: "systemMessage: shown to the user",
		Sources: []Source{
			{"hooks", "Factory Droid hooks reference (docs.factory.ai/reference/hooks-reference): Claude Code's matcher groups of {type: command, command, timeout in seconds}, events Stop and SubagentStop with decision block and reason; commands may use $FACTORY_PROJECT_DIR"},
			{"hook file", `Droid 0.225.2 driven in make hosts-e2e (TestDroidHookFiles): a project's hooks run from .factory/settings.json under "hooks"; .factory/hooks.json holds the events at its top level (the plugin layout); .factory/settings.local.json runs none`},
			{"version", "Droid 0.225.2 (npm @factory/cli 0.225.1 and its binary @factory/cli-linux-x64 0.225.2), driven in make hosts-e2e with a custom model (customModels in ~/.factory/settings.json, provider generic-chat-completion-api) and no Factory account"},
			{"stop", `Droid 0.225.2 driven in make hosts-e2e: Stop sends {"session_id","transcript_path" (~/.factory/sessions/...),"cwd","permission_mode","hook_event_name","message_id","stop_hook_active","tool_execution_count","elapsed_time"}, no prompt id; a block with a reason sends the reason to the model as the next message, with no cap of its own`},
			{"pre-edit", `Droid 0.225.2 driven in make hosts-e2e (TestDroidPreEditDeniesWeakening): PreToolUse sends tool_name Create {file_path, content}, Edit {file_path, old_str, new_str, change_all}, Execute {command, ...}; Claude Code's hookSpecificOutput deny refuses the tool`},
			{"after-edit", `Droid 0.225.2 driven in make hosts-e2e: droid exec fires SessionStart {"source":"startup"}, PostToolUse and SessionEnd {"reason":"other"}`},
		},
	},
}

// EventHooks are every entry init writes besides the stop hook: the after-edit ones, then the
// pre-edit ones.
func (h Host) EventHooks() []EventHook {
	return append(append([]EventHook(nil), h.AfterEdit...), h.PreEdit...)
}

// All lists every host, in the order help texts show them.
func All() []Host { return append([]Host(nil), table...) }

// Names lists every host's name, in the order of All.
func Names() []Name {
	out := make([]Name, len(table))
	for i, h := range table {
		out[i] = h.Name
	}
	return out
}

// NameList is every host's name joined with sep, for help texts and errors.
func NameList(sep string) string {
	var b strings.Builder
	for i, h := range table {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(h.Name))
	}
	return b.String()
}

// Get describes host; ok is false for a host gauntlet does not know.
func Get(name Name) (Host, bool) {
	for _, h := range table {
		if h.Name == name {
			return h, true
		}
	}
	return Host{}, false
}

// MustGet is Get for a name from this package's constants.
func MustGet(name Name) Host {
	h, ok := Get(name)
	if !ok {
		panic("hosts: unknown host " + string(name))
	}
	return h
}

// Parse reads a --host value, case and spaces aside; ok is false for an unknown host.
func Parse(s string) (Name, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, h := range table {
		if string(h.Name) == s {
			return h.Name, true
		}
	}
	return "", false
}

// ByStopEvent is the host whose stop (or subagent stop) carries this hook_event_name.
func ByStopEvent(event string) (Name, bool) {
	if event == "" {
		return "", false
	}
	for _, h := range table {
		if h.StopEvent == event || h.SubagentEvent == event {
			return h.Name, true
		}
	}
	return "", false
}

// Source is where fact was read; "" when the table names none.
func (h Host) Source(fact string) string {
	for _, s := range h.Sources {
		if s.Fact == fact {
			return s.From
		}
	}
	return ""
}

// TimeoutValue is the number to write in a hook entry for a timeout of d, in the host's unit
// (in milliseconds where the unit's number would be read as milliseconds).
func (h Host) TimeoutValue(d time.Duration) int {
	n := int(d / h.TimeoutUnit)
	if h.TimeoutMillisFrom > 0 && n >= h.TimeoutMillisFrom {
		return int(d / time.Millisecond)
	}
	return n
}

// TimeoutOf is the timeout the host reads from n in a hook entry.
func (h Host) TimeoutOf(n float64) time.Duration {
	if h.TimeoutMillisFrom > 0 && n >= float64(h.TimeoutMillisFrom) {
		return time.Duration(n * float64(time.Millisecond))
	}
	return time.Duration(n * float64(h.TimeoutUnit))
}

// TimeoutKeys are every key the host reads for the hook's timeout, the canonical one first.
func (h Host) TimeoutKeys() []string {
	return append([]string{h.TimeoutKey}, h.TimeoutAliases...)
}
