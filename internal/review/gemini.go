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

	"github.com/tailscale/hujson"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Gemini CLI has no command-line switch for hooks nor for its file filters, and takes system
// settings only from a file root owns, so the review gives it a Gemini home of its own
// (GEMINI_CLI_HOME): the user's settings with hooks turned off and an ignore file naming the
// secret files added to the file filters, and beside them links to everything else of the user's
// ~/.gemini (sign-in, accounts, extensions), so that it runs as the user signed in. A policy file
// (--policy) denies what the filters do not cover: content search, the shell, and reading a
// secret file by its path. --skip-trust trusts the project for this run only, so that a fresh
// checkout reviews without a trustedFolders.json. Nothing of the user's is written.

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
	for _, p := range secretPathPatterns() {
		rule("read_file", p, "gauntlet's review never reads files that may hold secrets")
	}
	return b.String()
}

// secretPathPatterns match the arguments of a tool reading a path a secret glob matches, two
// per glob: the path alone, and the path in a directory. Gemini CLI refuses a pattern with a
// quantified group (its guard against catastrophic backtracking), so there is none.
func secretPathPatterns() []string {
	var out []string
	for _, g := range secretGlobs() {
		name := globRegexp(g)
		out = append(out, `"file_path":"`+name+`"`, `"file_path":"[^"]*/`+name+`"`)
	}
	return out
}

// globRegexp turns a secret glob, without its leading "**/", into a regular expression for a
// path as JSON quotes it: "*" is any part of a name, "/**" anything below.
func globRegexp(glob string) string {
	var b strings.Builder
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

// maxSettingsBytes bounds the user's settings read to be copied into the review's.
const maxSettingsBytes = 1 << 20

// prepareGemini writes the review's Gemini home, ignore file and policy into tempDir. dir is the
// directory Gemini runs in (its file filters read ignore files relative to it); env is the gate's
// environment, for where the user's Gemini home is.
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
	userDir := filepath.Join(geminiHome(env), ".gemini")
	settings, err := readGeminiSettings(filepath.Join(userDir, "settings.json"))
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
	home := filepath.Join(tempDir, "home")
	ownDir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(ownDir, 0o700); err != nil {
		return geminiSetup{}, err
	}
	if err := os.WriteFile(filepath.Join(ownDir, "settings.json"), data, 0o600); err != nil {
		return geminiSetup{}, err
	}
	if err := linkGeminiHome(userDir, ownDir); err != nil {
		return geminiSetup{}, err
	}
	policy := filepath.Join(tempDir, "review-policy.toml")
	if err := os.WriteFile(policy, []byte(geminiPolicy()), 0o600); err != nil {
		return geminiSetup{}, err
	}
	return geminiSetup{policy: policy, env: []string{"GEMINI_CLI_HOME=" + home}}, nil
}

// linkGeminiHome links every entry of the user's ~/.gemini into the review's, but the settings
// (the review writes its own) and the trusted folders (the review trusts by flag, and must not
// add to the user's list).
func linkGeminiHome(userDir, ownDir string) error {
	entries, err := os.ReadDir(userDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gemini home: %w", err)
	}
	for _, e := range entries {
		if e.Name() == "settings.json" || e.Name() == "trustedFolders.json" {
			continue
		}
		from, to := filepath.Join(userDir, e.Name()), filepath.Join(ownDir, e.Name())
		if err := os.Symlink(from, to); err != nil && !copySmallFile(from, to) {
			return fmt.Errorf("gemini home: %w", err)
		}
	}
	return nil
}

// copySmallFile copies a regular file of at most maxSettingsBytes (a sign-in, an account list),
// where links cannot be made (Windows without the privilege). A directory (extensions, Gemini's
// own temporary files) is left out, and true says the review can do without it; false says the
// file could not be copied.
func copySmallFile(from, to string) bool {
	if info, err := os.Stat(from); err == nil && info.IsDir() {
		return true
	}
	deadline := time.Now().Add(5 * time.Second)
	f, info, err := safefile.Open(from, deadline)
	if err != nil {
		return false
	}
	defer f.Close()
	if info.Size() > maxSettingsBytes {
		return false
	}
	data, err := safefile.ReadAll(f, maxSettingsBytes, deadline)
	return err == nil && os.WriteFile(to, data, 0o600) == nil
}

// geminiHome is the folder Gemini CLI keeps .gemini in: GEMINI_CLI_HOME, else the home directory.
func geminiHome(env []string) string {
	lookup := func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, _ := strings.Cut(env[i], "="); k == key {
				return v
			}
		}
		return ""
	}
	if h := lookup("GEMINI_CLI_HOME"); h != "" {
		return h
	}
	if h := lookup("HOME"); h != "" && runtime.GOOS != "windows" {
		return h
	}
	if h := lookup("USERPROFILE"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// readGeminiSettings reads the user's settings (JSON with comments, as Gemini CLI reads them),
// so that the review's only add to them; none is an empty object.
func readGeminiSettings(path string) (map[string]any, error) {
	f, _, err := safefile.Open(path, time.Now().Add(5*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gemini settings: %w", err)
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxSettingsBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("gemini settings %s: %w", path, err)
	}
	settings := map[string]any{}
	if len(strings.TrimSpace(string(data))) == 0 {
		return settings, nil
	}
	std, err := hujson.Standardize(data)
	if err == nil {
		err = json.Unmarshal(std, &settings)
	}
	if err != nil {
		return nil, fmt.Errorf("gemini settings %s: not a JSON object: %w", path, err)
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
