package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Gemini CLI has no command-line switch for hooks nor for its file filters, so the review gives
// it settings of its own at the system level, the level that wins over the user's and the
// project's (GEMINI_CLI_SYSTEM_SETTINGS_PATH): the system settings in force, if any, with hooks
// turned off and an ignore file naming the secret files added to its file filters (read_file,
// read_many_files and glob honour it). A policy file (--policy) denies what the filters do not
// cover: content search, the shell, and reading a secret file by its path. --skip-trust trusts the
// project for this run only, so that a fresh checkout reviews without a trustedFolders.json.
// Nothing of the user's is written.

// geminiSetup is what a Gemini review runs with: its policy file and its environment.
type geminiSetup struct {
	policy string
	env    []string
}

// geminiPolicy denies the reviewer's tools what its file filters do not stop: grep_search,
// which searches the contents of files the filters should hide (seen with Gemini CLI 0.61.0),
// the shell, and read_file of any path a secret glob matches, one rule per glob.
func geminiPolicy() string {
	var b strings.Builder
	b.WriteString("# gauntlet's review: no content search, no shell, no secret file.\n")
	rule := func(tool, pattern, why string) {
		fmt.Fprintf(&b, "\n[[rule]]\ntoolName = %q\n", tool)
		if pattern != "" {
			fmt.Fprintf(&b, "argsPattern = %s\n", strconv.Quote(pattern))
		}
		fmt.Fprintf(&b, "decision = \"deny\"\npriority = 999\ndenyMessage = %q\n", why)
	}
	rule("grep_search", "", "gauntlet's review does not search file contents; read the files the change names")
	rule("run_shell_command", "", "gauntlet's review runs no command")
	for _, g := range secretGlobs() {
		rule("read_file", `"file_path":"`+globRegexp(g)+`"`, "gauntlet's review never reads files that may hold secrets")
	}
	return b.String()
}

// globRegexp turns a secret glob into a regular expression for a path as JSON quotes it:
// "**/" is any directory (or none), "*" any part of a name.
func globRegexp(glob string) string {
	var b strings.Builder
	b.WriteString(`(?:[^"]*/)?`)
	rest := strings.TrimPrefix(glob, "**/")
	for i := 0; i < len(rest); i++ {
		switch {
		case strings.HasPrefix(rest[i:], "/**"):
			b.WriteString(`/[^"]*`)
			i += 2
		case rest[i] == '*':
			b.WriteString(`[^"/]*`)
		default:
			b.WriteString(regexp.QuoteMeta(rest[i : i+1]))
		}
	}
	return b.String()
}

// maxSystemSettingsBytes bounds the system settings read to be layered under the review's.
const maxSystemSettingsBytes = 1 << 20

// prepareGemini writes the review's settings, ignore file and policy into tempDir. dir is the
// directory Gemini runs in (its file filters read ignore files relative to it); env is the gate's
// environment, for where the system settings are.
func prepareGemini(tempDir, dir string, env []string) (geminiSetup, error) {
	ignore := filepath.Join(tempDir, "secret-files.ignore")
	if err := os.WriteFile(ignore, []byte(strings.Join(secretGlobs(), "\n")+"\n"), 0o600); err != nil {
		return geminiSetup{}, err
	}
	// Gemini CLI joins a custom ignore file's path onto the project root, even an absolute one.
	relIgnore, err := filepath.Rel(dir, ignore)
	if err != nil {
		return geminiSetup{}, err
	}
	systemPath, defaultsPath := geminiSystemPaths(env)
	settings, err := readGeminiSettings(systemPath)
	if err != nil {
		return geminiSetup{}, err
	}
	section(settings, "hooksConfig")["enabled"] = false
	filtering := section(section(settings, "context"), "fileFiltering")
	paths, _ := filtering["customIgnoreFilePaths"].([]any)
	filtering["customIgnoreFilePaths"] = append(paths, filepath.ToSlash(relIgnore))
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return geminiSetup{}, err
	}
	ownSettings := filepath.Join(tempDir, "system-settings.json")
	policy := filepath.Join(tempDir, "review-policy.toml")
	if err := os.WriteFile(ownSettings, data, 0o600); err != nil {
		return geminiSetup{}, err
	}
	if err := os.WriteFile(policy, []byte(geminiPolicy()), 0o600); err != nil {
		return geminiSetup{}, err
	}
	return geminiSetup{policy: policy, env: []string{
		"GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + ownSettings,
		// The system defaults are found beside the system settings unless named: keep the real ones.
		"GEMINI_CLI_SYSTEM_DEFAULTS_PATH=" + defaultsPath,
	}}, nil
}

// geminiSystemPaths are where Gemini CLI would read its system settings and system defaults.
func geminiSystemPaths(env []string) (settings, defaults string) {
	lookup := func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, _ := strings.Cut(env[i], "="); k == key {
				return v
			}
		}
		return ""
	}
	settings = lookup("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if settings == "" {
		switch runtime.GOOS {
		case "darwin":
			settings = "/Library/Application Support/GeminiCli/settings.json"
		case "windows":
			settings = `C:\ProgramData\gemini-cli\settings.json`
		default:
			settings = "/etc/gemini-cli/settings.json"
		}
	}
	defaults = lookup("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
	if defaults == "" {
		defaults = filepath.Join(filepath.Dir(settings), "system-defaults.json")
	}
	return settings, defaults
}

// readGeminiSettings reads the system settings in force, so that the review's only add to
// them; none is an empty object. Settings that are not a plain JSON object (Gemini CLI also
// accepts comments) cannot be layered and stop the review, saying so.
func readGeminiSettings(path string) (map[string]any, error) {
	f, _, err := safefile.Open(path, time.Now().Add(5*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gemini system settings: %w", err)
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxSystemSettingsBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("gemini system settings %s: %w", path, err)
	}
	settings := map[string]any{}
	if len(strings.TrimSpace(string(data))) > 0 && json.Unmarshal(data, &settings) != nil {
		return nil, fmt.Errorf("gemini system settings %s are not plain JSON: the review cannot add its own to them", path)
	}
	return settings, nil
}

// section returns settings[key] as an object, creating it (or replacing a value of another type).
func section(settings map[string]any, key string) map[string]any {
	if m, ok := settings[key].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	settings[key] = m
	return m
}
