package hookfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/atomicfile"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Change is the hook file as it will be once gauntlet's stop hook is in it.
type Change struct {
	Host      hosts.Name
	Path      string // absolute
	Rel       string // relative to the repository root, slash-separated, for messages
	Exists    bool   // the file is there already and is merged into
	Installed bool   // it already runs gauntlet stop-hook: nothing to write
	Where     string // where the entry goes, for people: "hooks.Stop"
	Entry     []byte // the added entry as one line of JSON
	// Entries are every entry added, each with where it goes ("hooks.Stop: {...}"): the stop
	// hook's, then the after-edit hooks'.
	Entries []string
	Content []byte // the whole new file
}

// InvalidFileError is a hook file that cannot be merged into safely; it is left as it was.
type InvalidFileError struct {
	Path   string // as given to the user
	Reason string
}

func (e *InvalidFileError) Error() string {
	return fmt.Sprintf("%s: %s; left it unchanged: fix or move it, then run gauntlet init again", e.Path, e.Reason)
}

// Plan works out the hook file for host under root with command added, without writing it.
// A file that is not a JSON object, or whose hooks are not where the host keeps them, gives
// *InvalidFileError. An empty file counts as {}.
func Plan(root string, host hosts.Name, shared bool, command string) (*Change, error) {
	return PlanTimeout(root, host, shared, command, HookTimeoutSeconds)
}

// PlanTimeout is Plan with the host's hook timeout in seconds (see HookTimeoutFor), for a
// config whose stop_hook.timeout is above the default.
func PlanTimeout(root string, host hosts.Name, shared bool, command string, seconds int) (*Change, error) {
	rel, err := FilePath(host, shared)
	if err != nil {
		return nil, err
	}
	spec := hosts.MustGet(host)
	c := &Change{Host: host, Rel: rel, Path: filepath.Join(root, filepath.FromSlash(rel)),
		Where: "hooks." + spec.StopEvent}

	data, err := readPlannedFile(c)
	if err != nil {
		return nil, err
	}

	entry := entry(spec, command, seconds)
	c.Entry, err = entry.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode hook entry: %w", err)
	}
	c.Entries = []string{c.Where + ": " + string(c.Entry)}
	if spec.Hook.JSONC && len(bytes.TrimSpace(data)) > 0 && !json.Valid(data) {
		// Comments or trailing commas, which the host reads: patch the file in place so that
		// they stay, rather than refusing it or dropping them.
		return planJSONC(c, data, spec, entry, command)
	}

	doc, err := hookDocument(data, rel, spec.Hook.Version)
	if err != nil {
		return nil, err
	}

	added, err := addEntry(doc, spec.StopEvent, entry, command)
	if err != nil {
		return nil, &InvalidFileError{Path: rel, Reason: err.Error()}
	}
	if !added {
		c.Installed = true
		c.Content = data
		return c, nil
	}
	if c.Content, err = encodeJSON(doc); err != nil {
		return nil, fmt.Errorf("encode %s: %w", rel, err)
	}
	return c, nil
}

// readPlannedFile reads the hook file c plans for, noting whether it exists; nil when it does not.
func readPlannedFile(c *Change) ([]byte, error) {
	data, err := safefile.ReadFile(c.Path, maxHookFileBytes, time.Now().Add(10*time.Second))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read hook file: %w", err)
	}
	c.Exists = true
	return data, nil
}

// hookDocument is the hook file's JSON object (a new one for an empty file), with the version
// key the host wants added when it is missing.
func hookDocument(data []byte, rel string, versioned bool) (*object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		doc := newObject()
		if versioned {
			doc.set("version", 1) // first in a new file, where the host's documentation puts it
		}
		return doc, nil
	}
	v, err := decodeJSON(data)
	if err != nil {
		return nil, &InvalidFileError{Path: rel, Reason: "not valid JSON (" + err.Error() + ")"}
	}
	doc, ok := v.(*object)
	if !ok {
		return nil, &InvalidFileError{Path: rel, Reason: "not a JSON object"}
	}
	if _, ok := doc.get("version"); versioned && !ok {
		doc.set("version", 1)
	}
	return doc, nil
}

// Apply writes the file atomically, keeping its mode; an installed hook writes nothing.
func (c *Change) Apply() error {
	if c.Installed {
		return nil
	}
	return atomicfile.Write(c.Path, c.Content, 0o644)
}

// addEntry appends entry to hooks.<event> unless a stop hook running gauntlet is there already.
func addEntry(doc *object, event string, entry *object, command string) (bool, error) {
	hooks, list, err := eventList(doc, event)
	if err != nil {
		return false, err
	}
	if runsStopHook(list, command) {
		return false, nil
	}
	hooks.set(event, append(list, entry))
	doc.set("hooks", hooks)
	return true, nil
}

// eventList finds hooks.<event> in doc: the hooks object (a new one when there is none) and the
// event's list (nil when there is none). Either of another type is an error.
func eventList(doc *object, event string) (*object, []any, error) {
	hooks := newObject()
	switch v, _ := doc.get("hooks"); v := v.(type) {
	case nil:
	case *object:
		hooks = v
	default:
		return nil, nil, fmt.Errorf(`"hooks" is %s, not an object`, kindOf(v))
	}
	var list []any
	switch v, _ := hooks.get(event); v := v.(type) {
	case nil:
	case []any:
		list = v
	default:
		return nil, nil, fmt.Errorf(`"hooks.%s" is %s, not a list`, event, kindOf(v))
	}
	return hooks, list, nil
}

// runsStopHook looks for a command (Copilot: bash) anywhere in an event's entries that runs
// gauntlet stop-hook, whatever shape the entry has. Besides any gauntlet, that is the command
// being installed, which names this program by its path (and file name) when it is not on PATH.
func runsStopHook(v any, command string) bool {
	return runsCommand(v, func(s string) bool { return IsStopHookCommand(s) || strings.TrimSpace(s) == command })
}

func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case *object:
		return "an object"
	default:
		return "a number"
	}
}
