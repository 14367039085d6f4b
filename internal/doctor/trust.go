package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxTrustFileBytes bounds the read of a host's own settings file: a config.toml or a list of
// trusted folders is kilobytes; Copilot's config.json is the largest and stays well below this.
const maxTrustFileBytes = 4 << 20

// trustCheck reads where host keeps the trust a project hook needs, for the project at root.
// Nothing is written: granting trust stays the user's act in the host.
func trustCheck(e Env, host hosts.Name, root string) Check {
	c := Check{Host: host, Name: "trust"}
	spec := hosts.MustGet(host)
	switch host {
	case hosts.Codex:
		return codexTrust(e, root)
	case hosts.Gemini:
		return geminiTrust(e, root)
	case hosts.Copilot:
		return copilotTrust(e, root)
	default:
		c.Level, c.Message = OK, spec.Trust.How
	}
	return c
}

// codexHome is where Codex keeps its user config: $CODEX_HOME, else ~/.codex.
func codexHome(e Env) string {
	if d := e.getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(e.Home, ".codex")
}

type codexConfig struct {
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	Hooks struct {
		State map[string]struct {
			TrustedHash string `toml:"trusted_hash"`
			Enabled     *bool  `toml:"enabled"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// codexTrust checks both gates Codex puts before a project hook: the project must be trusted
// ([projects."ROOT"] trust_level), and the hook itself reviewed in /hooks, which Codex records
// as [hooks.state."FILE:stop:GROUP:INDEX"] trusted_hash. The hash is Codex's to compute, so a
// recorded one is taken as trust (a hook changed since asks for review again).
func codexTrust(e Env, root string) Check {
	path := filepath.Join(codexHome(e), "config.toml")
	shown := e.display(path)
	c := Check{Host: hosts.Codex, Name: "trust"}
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level = Warn
		c.Message = fmt.Sprintf("%s does not exist: Codex has not trusted this project, and skips its hooks without a word", shown)
		c.Fix = fmt.Sprintf(`run "codex exec --trust" once in %s (or trust it when codex asks), then trust the hook in codex's /hooks screen`, root)
		return c
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return c
	}
	var cfg codexConfig
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not valid TOML: %v", shown, oneLine(err.Error()))
		return c
	}
	levels := make(map[string]string, len(cfg.Projects))
	for dir, p := range cfg.Projects {
		levels[filepath.Clean(dir)] = p.TrustLevel
	}
	level := ""
	for dir := root; ; dir = filepath.Dir(dir) {
		if l, ok := levels[dir]; ok {
			level = l
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if level != "trusted" {
		c.Level = Problem
		c.Message = fmt.Sprintf("Codex has not trusted %s (%s): it skips the project's hooks without a word", root, orNone(level, "not listed in "+shown))
		c.Fix = fmt.Sprintf(`run "codex exec --trust" once in %s, or add [projects."%s"] trust_level = "trusted" to %s`, root, root, shown)
		return c
	}
	prefix := filepath.Join(root, ".codex", "hooks.json") + ":stop:"
	trusted, disabled := false, false
	for key, st := range cfg.Hooks.State {
		if !strings.HasPrefix(key, prefix) {
			continue
		}
		if st.Enabled != nil && !*st.Enabled {
			disabled = true
		}
		if st.TrustedHash != "" {
			trusted = true
		}
	}
	switch {
	case disabled:
		c.Level = Problem
		c.Message = "the project is trusted, but the stop hook is disabled in codex's /hooks screen"
		c.Fix = "enable it in codex's /hooks screen"
	case !trusted:
		c.Level = Problem
		c.Message = "the project is trusted, but Codex has not trusted the stop hook: it skips it without a word"
		c.Fix = "review and trust the hook in codex's /hooks screen (again after every change to it)"
	default:
		c.Level = OK
		c.Message = "the project and the stop hook are trusted (a hook changed since must be trusted again in /hooks)"
	}
	return c
}

// geminiTrust reads ~/.gemini/trustedFolders.json: {"/path": "TRUST_FOLDER" | "TRUST_PARENT" |
// "DO_NOT_TRUST"}. The nearest rule above the project decides, as in Gemini CLI. Folder trust
// is off unless enabled in Gemini's settings, so a folder not listed is only a warning.
func geminiTrust(e Env, root string) Check {
	path := filepath.Join(e.Home, ".gemini", "trustedFolders.json")
	shown := e.display(path)
	c := Check{Host: hosts.Gemini, Name: "trust"}
	fix := "start gemini in " + root + " and choose \"Trust folder\" (or \"Trust parent folder\")"
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level, c.Message, c.Fix = OK, "no "+shown+": folder trust has never been used, so Gemini CLI runs project hooks (with folder trust on it would ask first)", ""
		return c
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return c
	}
	var rules map[string]string
	if err := json.Unmarshal(data, &rules); err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not a JSON object of folders: %v", shown, err)
		return c
	}
	best, verdict := "", ""
	for folder, rule := range rules {
		scope := filepath.Clean(folder)
		if rule == "TRUST_PARENT" {
			scope = filepath.Dir(scope)
		}
		if within(root, scope) && len(scope) >= len(best) {
			best, verdict = scope, rule
		}
	}
	switch verdict {
	case "TRUST_FOLDER", "TRUST_PARENT":
		c.Level, c.Message = OK, fmt.Sprintf("%s trusts %s", shown, best)
	case "DO_NOT_TRUST":
		c.Level = Problem
		c.Message = fmt.Sprintf("%s marks %s as not trusted: Gemini CLI runs no project hook there", shown, best)
		c.Fix = "remove that entry from " + shown + ", then " + fix
	default:
		c.Level = Warn
		c.Message = fmt.Sprintf("%s does not list %s: with folder trust on, Gemini CLI runs no project hook until it is trusted", shown, root)
		c.Fix = fix
	}
	return c
}

// copilotTrust reads trusted_folders in Copilot CLI's config.json ($COPILOT_HOME, else
// ~/.copilot): repository hooks load only in a trusted folder or below one.
func copilotTrust(e Env, root string) Check {
	dir := e.getenv("COPILOT_HOME")
	if dir == "" {
		dir = filepath.Join(e.Home, ".copilot")
	}
	path := filepath.Join(dir, "config.json")
	shown := e.display(path)
	c := Check{Host: hosts.Copilot, Name: "trust"}
	fix := "start copilot in " + root + " and choose to trust the folder"
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		c.Level, c.Message, c.Fix = Warn, shown+" does not exist: Copilot has trusted no folder, and loads repository hooks only in a trusted one", fix
		return c
	}
	if err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("cannot read %s: %v", shown, err)
		return c
	}
	var cfg struct {
		TrustedFolders []string `json:"trusted_folders"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		c.Level, c.Message = Warn, fmt.Sprintf("%s is not the JSON Copilot writes: %v", shown, err)
		return c
	}
	for _, f := range cfg.TrustedFolders {
		if within(root, filepath.Clean(f)) {
			c.Level, c.Message = OK, fmt.Sprintf("%s trusts %s", shown, f)
			return c
		}
	}
	c.Level = Problem
	c.Message = fmt.Sprintf("%s does not trust %s: Copilot does not load the repository's hooks", shown, root)
	c.Fix = fix
	return c
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

func readBounded(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, maxTrustFileBytes, time.Now().Add(readDeadline))
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("over %d MiB", maxTrustFileBytes>>20)
	}
	return data, err
}

// readDeadline bounds reading a host's file, which is small: one whose read blocks is given up.
const readDeadline = 5 * time.Second

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return "trust_level " + s
}
