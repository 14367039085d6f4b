package hookfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Hook is one stop-hook entry running gauntlet, as found in a host's project hook file.
type Hook struct {
	Host    hosts.Name
	File    string // relative to the repository root, slash-separated
	Command string
	// Type is the entry's "type" ("command" for a command hook); "" when the entry has none.
	Type string
	// Timeout is what the host gives the hook: the entry's own, else the host's default; 0 when
	// neither is known. TimeoutSet says the entry sets it.
	Timeout    time.Duration
	TimeoutSet bool
	TimeoutKey string // the key that set it
	// Cap is the host's own limit on consecutive blocks for this entry; 0 when it has none.
	Cap int
}

// HookFile is one of a host's hook files that exists, with gauntlet's entries in it.
type HookFile struct {
	Host  hosts.Name
	File  string // relative to the repository root, slash-separated
	Hooks []Hook // empty: the file runs no gauntlet stop hook
	Err   error  // the file could not be read or is not the JSON the host expects
}

// maxHookFileBytes bounds the read of a hook file: real ones are a few kilobytes.
const maxHookFileBytes = 1 << 20

// maxGlobFiles bounds how many files of a glob (.github/hooks/*.json) are read.
const maxGlobFiles = 64

// Inspect reads host's hook files under root that exist and finds gauntlet's stop-hook entries.
func Inspect(root string, host hosts.Name) []HookFile {
	spec, ok := hosts.Get(host)
	if !ok {
		return nil
	}
	var rels []string
	for _, pattern := range spec.Hook.Files {
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
func findHooks(spec hosts.Host, rel string, data []byte) ([]Hook, error) {
	var doc map[string]any
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil
	}
	if err := unmarshal(spec, data, &doc); err != nil {
		return nil, err
	}
	return hooksIn(spec, rel, doc), nil
}

// HostsOf lists the hosts that read rel (relative to the repository root, slash-separated) as
// a project hook file; none when it is not one.
func HostsOf(rel string) []hosts.Name {
	var out []hosts.Name
	for _, h := range hosts.All() {
		for _, pattern := range h.Hook.Files {
			if ok, _ := filepath.Match(pattern, rel); ok {
				out = append(out, h.Name)
				break
			}
		}
	}
	return out
}

// HooksIn finds host's gauntlet stop-hook entries in the decoded content of its hook file rel.
func HooksIn(host hosts.Name, rel string, doc map[string]any) []Hook {
	spec, ok := hosts.Get(host)
	if !ok {
		return nil
	}
	return hooksIn(spec, rel, doc)
}

func hooksIn(spec hosts.Host, rel string, doc map[string]any) []Hook {
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
			for _, k := range []string{spec.Hook.CommandKey} {
				if s, ok := v[k].(string); ok && (IsStopHookCommand(s) || GauntletWord(s) != "") {
					found = append(found, entryHook(spec, rel, s, v))
					return
				}
			}
			walk(v["hooks"])
		}
	}
	walk(hooks[spec.StopEvent])
	return found
}

func entryHook(spec hosts.Host, rel, command string, entry map[string]any) Hook {
	h := Hook{Host: spec.Name, File: rel, Command: command, Timeout: spec.DefaultTimeout, Cap: spec.Cap.Blocks}
	h.Type, _ = entry["type"].(string)
	// The canonical key wins over an alias, as in the host.
	for _, k := range spec.TimeoutKeys() {
		if n, ok := entry[k].(float64); ok && n > 0 {
			h.Timeout = spec.TimeoutOf(n)
			h.TimeoutSet, h.TimeoutKey = true, k
			break
		}
	}
	if spec.Cap.Key != "" {
		if n, ok := entry[spec.Cap.Key].(float64); ok && n >= 0 {
			h.Cap = int(n)
		}
	}
	return h
}

// Installed lists the gauntlet stop hooks in every host's files under root.
func Installed(root string) []Hook {
	var out []Hook
	for _, h := range hosts.Names() {
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
