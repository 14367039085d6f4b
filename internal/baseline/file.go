package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// FileName is the baseline a user commits at the project root (`gauntlet baseline` writes it).
// new_only reads it as committed at the base of the change, never from the working tree: a change
// cannot excuse its own findings by editing it.
const FileName = ".gauntlet-baseline.json"

// MaxFileBytes bounds the baseline read.
const MaxFileBytes = 32 << 20

// SchemaVersion is the version of the baseline file's format.
const SchemaVersion = 1

// File is the baseline file: for each gate, the findings it printed at one commit.
type File struct {
	SchemaVersion int                  `json:"schema_version"`
	Gates         map[string]GateEntry `json:"gates"`
}

// GateEntry is one gate's findings at Commit. Definition is the digest of the gate's command,
// directory, environment and format (Definition): a gate changed since is run at the base again.
type GateEntry struct {
	Commit     string  `json:"commit"`
	Definition string  `json:"definition"`
	Failed     bool    `json:"failed"`
	Findings   []Entry `json:"findings"`
}

// Entry is one finding as the baseline records it: root-relative file, line at Commit, rule and
// message as printed (the root path written as $ROOT); numbers are normalised when compared.
type Entry struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Message string `json:"message"`
}

// EntryOf records a finding produced in the tree at root.
func EntryOf(f gates.Finding, root string) Entry {
	e := Entry{File: f.File, Line: f.Line, Rule: f.Rule, Message: f.Message}
	if root != "" {
		e.File = strings.ReplaceAll(e.File, root, "$ROOT")
		e.Message = strings.ReplaceAll(e.Message, root, "$ROOT")
	}
	return e
}

// ParseFile reads a baseline file.
func ParseFile(data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", FileName, err)
	}
	if f.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: schema_version %d, want %d", FileName, f.SchemaVersion, SchemaVersion)
	}
	if f.Gates == nil {
		f.Gates = map[string]GateEntry{}
	}
	return &f, nil
}

// Encode writes the file with its findings in a stable order, so that a rewrite shows in a diff
// only what changed.
func (f *File) Encode() ([]byte, error) {
	for name, g := range f.Gates {
		g.Findings = slices.Clone(g.Findings)
		slices.SortStableFunc(g.Findings, func(a, b Entry) int {
			return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
				strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
		})
		if g.Findings == nil {
			g.Findings = []Entry{}
		}
		f.Gates[name] = g
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encode %s: %w", FileName, err)
	}
	return b.Bytes(), nil
}

// Set is the entry's findings as a set, for a changed tree at root whose lines map to the entry's
// commit by lines.
func (e GateEntry) Set(source string) *Set {
	s := NewSet(source, e.Failed)
	for _, f := range e.Findings {
		s.Add(gates.Finding{File: f.File, Line: f.Line, Rule: f.Rule, Message: f.Message}, "$ROOT")
	}
	return s
}
