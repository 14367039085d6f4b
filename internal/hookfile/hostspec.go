package hookfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Spec is everything gauntlet knows about one host besides its reply dialect: where its project
// hook file is, how it counts a hook's time, what it caps on its own, and where it keeps the
// trust without which a project hook never runs. init writes from it and doctor checks with it.
type Spec struct {
	Name    string // as --host spells it
	Display string // for people: "Claude Code"
	// Files are the project hook files, relative to the repository root and slash-separated:
	// the file init writes first, then any other the host also reads (Claude Code's shared
	// settings.json). A "*" is a glob (Copilot reads every .github/hooks/*.json).
	Files []string
	Event string // the key under "hooks" that holds the stop hook
	// TimeoutKey is the entry's key for its timeout, counted in TimeoutUnit.
	TimeoutKey  string
	TimeoutUnit time.Duration
	// DefaultTimeout is what the host gives a hook whose entry sets none; 0 when unknown.
	DefaultTimeout time.Duration
	// Cap is how many consecutive blocks the host allows before it ends the turn itself; 0 when
	// it has none. CapKey names an entry key that sets it per hook (Cursor's loop_limit).
	Cap    int
	CapKey string
	// Trust says where the host keeps the trust a project hook needs and how to grant it, for
	// when doctor cannot read it from a file.
	Trust string
	// Messages says where a user sees the hook's messages (retry limit, gates not run).
	Messages string
}

// CopilotBlockCap is how many consecutive blocks Copilot CLI accepts before it ends the turn on
// its own (since 1.0.72).
const CopilotBlockCap = 8

// cursorDefaultLoopLimit is the cap Cursor applies to a stop hook entry without loop_limit.
const cursorDefaultLoopLimit = 5

var specs = map[string]Spec{
	Claude: {Display: "Claude Code", TimeoutKey: "timeout", TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second,
		Trust:          "Claude Code asks to trust the folder the first time it starts there; project hooks run only after that",
		Messages:       "systemMessage: shown in the interactive screen and in stream-json output only"},
	Codex: {Display: "Codex", TimeoutKey: "timeout", TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second,
		Trust:          `trust the project (answer yes when codex asks, run "codex exec --trust" once in it, or add [projects."ROOT"] trust_level = "trusted" to ~/.codex/config.toml), then review and trust the hook in codex's /hooks screen (again after every change to it)`,
		Messages:       `systemMessage: codex exec prints only "hook: Stop Completed"`},
	Cursor: {Display: "Cursor", TimeoutKey: "timeout", TimeoutUnit: time.Second,
		Cap: cursorDefaultLoopLimit, CapKey: "loop_limit",
		Trust:    "Cursor runs project hooks without a trust step",
		Messages: "Cursor shows no message from a stop hook that allows; gauntlet writes it to stderr"},
	Gemini: {Display: "Gemini CLI", TimeoutKey: "timeout", TimeoutUnit: time.Millisecond,
		DefaultTimeout: 60 * time.Second,
		Trust:          `with folder trust on, trust the folder in the dialog gemini shows on its first start there (kept in ~/.gemini/trustedFolders.json); an untrusted folder runs no project hook`,
		Messages:       "systemMessage: Gemini CLI logs it at debug level only"},
	Copilot: {Display: "GitHub Copilot", TimeoutKey: "timeoutSec", TimeoutUnit: time.Second,
		DefaultTimeout: 30 * time.Second, Cap: CopilotBlockCap,
		Trust:    "start copilot in the folder and choose to trust it (kept in ~/.copilot/config.json, trusted_folders); repository hooks load only in a trusted folder",
		Messages: "Copilot drops a stop hook's messages; gauntlet writes them to stderr"},
}

// SpecOf describes host; ok is false for a host gauntlet does not know.
func SpecOf(host string) (Spec, bool) {
	s, ok := specs[host]
	f, known := hostFiles[host]
	if !ok || !known {
		return Spec{}, false
	}
	s.Name = host
	s.Event = f.event
	s.Files = []string{f.path}
	if f.sharedPath != "" {
		s.Files = append(s.Files, f.sharedPath)
	}
	if host == Copilot {
		s.Files = []string{f.path, ".github/hooks/*.json"}
	}
	return s, true
}

// Specs describes every host, in Hosts order.
func Specs() []Spec {
	out := make([]Spec, 0, len(specs))
	for _, h := range Hosts() {
		s, _ := SpecOf(h)
		out = append(out, s)
	}
	return out
}

// Hook is one stop-hook entry running gauntlet, as found in a host's project hook file.
type Hook struct {
	Host    string
	File    string // relative to the repository root, slash-separated
	Command string
	// Timeout is what the host gives the hook: the entry's own, else the host's default; 0 when
	// neither is known. TimeoutSet says the entry sets it.
	Timeout    time.Duration
	TimeoutSet bool
	// Cap is the host's own limit on consecutive blocks for this entry; 0 when it has none.
	Cap int
}

// HookFile is one of a host's hook files that exists, with gauntlet's entries in it.
type HookFile struct {
	Host  string
	File  string // relative to the repository root, slash-separated
	Hooks []Hook // empty: the file runs no gauntlet stop hook
	Err   error  // the file could not be read or is not the JSON the host expects
}

// maxHookFileBytes bounds the read of a hook file: real ones are a few kilobytes.
const maxHookFileBytes = 1 << 20

// maxGlobFiles bounds how many files of a glob (.github/hooks/*.json) are read.
const maxGlobFiles = 64

// Inspect reads host's hook files under root that exist and finds gauntlet's stop-hook entries.
func Inspect(root, host string) []HookFile {
	spec, ok := SpecOf(host)
	if !ok {
		return nil
	}
	var rels []string
	for _, pattern := range spec.Files {
		if !strings.Contains(pattern, "*") {
			rels = append(rels, pattern)
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		for _, m := range matches[:min(len(matches), maxGlobFiles)] {
			if rel, err := filepath.Rel(root, m); err == nil {
				rels = append(rels, filepath.ToSlash(rel))
			}
		}
	}
	var out []HookFile
	for _, rel := range rels {
		if slices.ContainsFunc(out, func(f HookFile) bool { return f.File == rel }) {
			continue
		}
		data, err := readHookFile(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		f := HookFile{Host: host, File: rel, Err: err}
		if err == nil {
			f.Hooks, f.Err = findHooks(spec, rel, data)
		}
		out = append(out, f)
	}
	return out
}

func readHookFile(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, maxHookFileBytes, time.Now().Add(hookReadDeadline))
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("over %d KiB, more than a hook file holds", maxHookFileBytes>>10)
	}
	return data, err
}

// hookReadDeadline bounds reading a hook file: one whose read blocks is given up.
const hookReadDeadline = 5 * time.Second

// findHooks walks the event's entries for commands running gauntlet stop-hook, whatever the
// nesting (Claude Code's matcher groups, Cursor's flat list).
func findHooks(spec Spec, rel string, data []byte) ([]Hook, error) {
	var doc map[string]any
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	hooks, _ := doc["hooks"].(map[string]any)
	var found []Hook
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, item := range v {
				walk(item)
			}
		case map[string]any:
			for _, k := range []string{"command", "bash"} {
				if s, ok := v[k].(string); ok && (IsStopHookCommand(s) || GauntletWord(s) != "") {
					found = append(found, entryHook(spec, rel, s, v))
					return
				}
			}
			walk(v["hooks"])
		}
	}
	walk(hooks[spec.Event])
	return found, nil
}

func entryHook(spec Spec, rel, command string, entry map[string]any) Hook {
	h := Hook{Host: spec.Name, File: rel, Command: command, Timeout: spec.DefaultTimeout, Cap: spec.Cap}
	if n, ok := entry[spec.TimeoutKey].(float64); ok && n > 0 {
		h.Timeout = time.Duration(n * float64(spec.TimeoutUnit))
		h.TimeoutSet = true
	}
	if spec.CapKey != "" {
		if n, ok := entry[spec.CapKey].(float64); ok && n >= 0 {
			h.Cap = int(n)
		}
	}
	return h
}

// Installed lists the gauntlet stop hooks in every host's files under root.
func Installed(root string) []Hook {
	var out []Hook
	for _, h := range Hosts() {
		for _, f := range Inspect(root, h) {
			out = append(out, f.Hooks...)
		}
	}
	return out
}

// GauntletWord is the word of a hook command that names the gauntlet program ("gauntlet",
// "/opt/bin/gauntlet"), else the program word before "stop-hook" (init names a gauntlet off
// PATH by its own path, whatever its file name); "" when neither is there.
func GauntletWord(command string) string {
	words := shellWords(command)
	for i, w := range words {
		if base := filepath.Base(w); base == "gauntlet" || base == "gauntlet.exe" {
			return w
		}
		if w == "stop-hook" && i > 0 {
			return words[i-1]
		}
	}
	return ""
}

// SameProgram reports whether two paths are one program: the same file after symlinks, or the
// same file on disk.
func SameProgram(r Resolver, a, b string) bool { return sameProgram(r, a, b) }
