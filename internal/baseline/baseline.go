// Package baseline knows what a gate reports at the base of a change, so that new_only sets a
// finding aside only when the base produces the same one: the identity of a finding, the set of
// a base's findings, the file a user commits (`gauntlet baseline`) and the cache of the base's
// findings under the state dir.
package baseline

import (
	"crypto/sha256"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// MaxFindings bounds the findings a set holds: a base with more keeps the first ones and is
// incomplete, which can only make more findings count, never fewer.
const MaxFindings = 100_000

// Key is a finding's identity: its file, line (in the version it was produced at), rule (a
// linter's rule or a test's name) and message with the root path, numbers and positions
// normalised, hashed so that a set of thousands stays small.
type Key [16]byte

var number = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+`) })

// KeyOf is the identity of f at line, with root (the tree it was produced in) normalised out.
// Numbers become N, so that "F() = 3, want 1" at the base and "F() = 2, want 1" now are the same
// failing check, and "12:5" in a message does not tell a moved finding apart.
func KeyOf(f gates.Finding, line int, root string) Key {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	field(normalise(f.File, root))
	field(strconv.Itoa(line))
	field(normalise(f.Rule, root))
	field(normalise(f.Message, root))
	var k Key
	copy(k[:], h.Sum(nil))
	return k
}

func normalise(s, root string) string {
	if root != "" {
		s = strings.ReplaceAll(s, root, "$ROOT")
	}
	s = number().ReplaceAllString(s, "N")
	return strings.Join(strings.Fields(s), " ")
}

// Set is what a gate produced at one version of the project (the merge-base, or the commit a
// baseline was written at), to match the findings of the changed tree against.
type Set struct {
	// Source names that version for reasons: "the merge-base 1a2b3c4d5e6f".
	Source string
	// Failed says the gate failed there. A gate that passed at the base excuses nothing: its
	// failure now is the change's, whatever findings both print.
	Failed bool
	// Complete is false when the base printed more findings than the set keeps.
	Complete bool
	// Cause is the environment cause that failed the gate there ("" when its exit code judged
	// it): what the base reports under a cause is what that cause explains.
	Cause string
	// Commit is the commit the findings' lines are numbered at: the merge-base, or the commit a
	// baseline was written at.
	Commit string
	// Lines maps the changed tree's lines to the source's; Root is the changed tree's root.
	Lines snapshot.LineMap
	Root  string

	keys map[Key]int
	n    int
}

// NewSet returns an empty, complete set.
func NewSet(source string, failed bool) *Set {
	return &Set{Source: source, Failed: failed, Complete: true, keys: map[Key]int{}}
}

// Add records a finding of the source version, produced in the tree at root.
func (s *Set) Add(f gates.Finding, root string) {
	s.AddKey(KeyOf(f, f.Line, root))
}

// AddKey records a finding by its identity.
func (s *Set) AddKey(k Key) {
	if s.n >= MaxFindings {
		s.Complete = false
		return
	}
	s.keys[k]++
	s.n++
}

// Len is how many findings the set holds.
func (s *Set) Len() int { return s.n }

// Keys lists every identity as often as it was added, for storing the set.
func (s *Set) Keys() []Key {
	out := make([]Key, 0, s.n)
	for k, n := range s.keys {
		for range n {
			out = append(out, k)
		}
	}
	return out
}

// Take reports whether the source produced f, a finding of the changed tree: the same identity
// at the line f's line was before the change (a line the change added has none). Each finding of
// the source matches one finding of the changed tree: two where there was one is one new.
func (s *Set) Take(f gates.Finding) bool {
	line, ok := s.Lines.Old(f.File, f.Line)
	if !ok {
		return false
	}
	k := KeyOf(f, line, s.Root)
	if s.keys[k] == 0 {
		return false
	}
	s.keys[k]--
	return true
}

// Clone returns a copy whose counts Take can consume without touching s.
func (s *Set) Clone() *Set {
	c := *s
	c.keys = make(map[Key]int, len(s.keys))
	for k, n := range s.keys {
		c.keys[k] = n
	}
	return &c
}
