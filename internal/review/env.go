package review

import (
	"runtime"
	"slices"
	"strings"
)

// What a built-in reviewer inherits: what any program needs to run (the path, home, user,
// temporary directory, terminal and locale), what it needs to reach its provider through the
// network it is on (proxies and certificate authorities), the CLI's own settings and its provider's
// key and address, and gauntlet's own variables. Nothing else of the user's environment: a
// reviewer is a model reading a diff someone else wrote, and a model that asks its shell for the
// environment must not find the cloud keys, tokens and passwords the user's shell holds.
var (
	reviewerCommonEnv = []string{
		"PATH", "HOME", "USER", "LOGNAME", "USERNAME", "SHELL", "TMPDIR", "TEMP", "TMP", "TERM", "TZ",
		"LANG", "LANGUAGE", "NO_COLOR",
		"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "NODE_USE_SYSTEM_CA", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
		// Windows: programs do not start without some of these.
		"SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
		"PROGRAMDATA", "PROGRAMFILES", "HOMEDRIVE", "HOMEPATH",
		// gauntlet's own: the run, the gate, and the stop hook's context.
		"GAUNTLET", "GAUNTLET_RUN_ID", "GAUNTLET_GATE", "GAUNTLET_HOOK_EVENT", "GAUNTLET_SESSION_ID",
		"GAUNTLET_TRANSCRIPT_PATH", "GAUNTLET_HOST",
	}
	reviewerCommonPrefixes = []string{"LC_"}

	// Each CLI's settings and provider: its key, its base URL, its config home.
	reviewerCLIEnv = map[string]struct{ names, prefixes []string }{
		CLIClaude: {
			names: []string{"CLAUDE_CONFIG_DIR", "DISABLE_TELEMETRY", "DISABLE_AUTOUPDATER", "DISABLE_ERROR_REPORTING",
				"DISABLE_NON_ESSENTIAL_MODEL_CALLS", "MAX_THINKING_TOKENS"},
			prefixes: []string{"ANTHROPIC_", "CLAUDE_CODE_"},
		},
		CLICodex: {
			names:    []string{"CODEX_HOME", "CODEX_API_KEY", "CODEX_CA_CERTIFICATE"},
			prefixes: []string{"OPENAI_"},
		},
		CLIGemini: {
			names: []string{"GEMINI_API_KEY", "GEMINI_MODEL", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL",
				"GOOGLE_VERTEX_BASE_URL", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_ACCESS_TOKEN"},
			prefixes: []string{"GEMINI_CLI_", "GOOGLE_CLOUD_", "GOOGLE_GENAI_"},
		},
	}
)

// reviewerEnv is the environment of a built-in reviewer: the entries of env (the gate's complete
// environment, the later entry of a key winning) whose names the allowlist keeps, plus every
// entry explicit names (the config's and the gate's env, which the config's author chose). A
// custom reviewer is the author's own command, like a check gate, and keeps env whole.
func reviewerEnv(cli string, env, explicit []string) []string {
	own, builtin := reviewerCLIEnv[cli]
	if !builtin {
		return env
	}
	chosen := make(map[string]bool, len(explicit))
	for _, kv := range explicit {
		chosen[envName(kv)] = true
	}
	keep := func(name string) bool {
		return chosen[name] || slices.Contains(reviewerCommonEnv, name) || slices.Contains(own.names, name) ||
			slices.ContainsFunc(reviewerCommonPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) ||
			slices.ContainsFunc(own.prefixes, func(p string) bool { return strings.HasPrefix(name, p) })
	}
	var out []string
	for _, kv := range env {
		if keep(envName(kv)) {
			out = append(out, kv)
		}
	}
	return out
}

// envName is the variable's name as the allowlist spells it: proxies are also written in lower
// case (https_proxy), and on Windows names are case-insensitive.
func envName(kv string) string {
	name, _, _ := strings.Cut(kv, "=")
	upper := strings.ToUpper(name)
	if runtime.GOOS == "windows" || strings.HasSuffix(upper, "_PROXY") {
		return upper
	}
	return name
}
