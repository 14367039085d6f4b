package integrity

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// memChange is a Change between two sets of files in memory, diffed line by line.
type memChange struct {
	old, new map[string]string
	files    []File
}

func (m *memChange) Files() []File { return m.files }
func (m *memChange) Old(p string) ([]byte, bool) {
	s, ok := m.old[p]
	return []byte(s), ok
}
func (m *memChange) New(p string) ([]byte, bool) {
	s, ok := m.new[p]
	return []byte(s), ok
}

// changeOf builds the change from old to new; renames maps an old path to its new one.
func changeOf(old, new map[string]string, renames map[string]string) *memChange {
	m := &memChange{old: old, new: new}
	renamedTo := map[string]string{}
	for o, n := range renames {
		renamedTo[n] = o
	}
	var paths []string
	for p := range old {
		if _, gone := renames[p]; !gone {
			paths = append(paths, p)
		}
	}
	for p := range new {
		if _, ok := old[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	for _, p := range paths {
		oldPath := p
		if o, ok := renamedTo[p]; ok {
			oldPath = o
		}
		o, hadOld := old[oldPath]
		n, hasNew := new[p]
		f := File{Path: p, OldPath: oldPath}
		switch {
		case !hadOld:
			f.Created, f.OldPath = true, ""
		case !hasNew:
			f.Deleted = true
		case o == n && oldPath == p:
			continue
		}
		f.Added, f.Removed = DiffLines(splitLines([]byte(o)), splitLines([]byte(n)))
		m.files = append(m.files, f)
	}
	return m
}

// detect runs every detector on the change and renders findings as "rule file:line".
func render(found []gates.IntegrityFinding) []string {
	out := make([]string, 0, len(found))
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s %s:%d", f.Rule, f.File, f.Line))
	}
	return out
}

func renderMessages(found []gates.IntegrityFinding) string {
	var b strings.Builder
	for _, f := range found {
		fmt.Fprintf(&b, "%s %s:%d %s\n", f.Rule, f.File, f.Line, f.Message)
	}
	return b.String()
}

type detectCase struct {
	name     string
	old, new map[string]string
	renames  map[string]string
	commands []string
	want     []string // "rule file:line"; nil means no finding
}

func runCases(t *testing.T, cases []detectCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found := Detect(changeOf(tc.old, tc.new, tc.renames), Inputs{ConfigFile: ".gauntlet.yml", Commands: tc.commands})
			got := render(found)
			if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("findings:\n%s\nwant %q", renderMessages(found), tc.want)
			}
		})
	}
}

// TestFiles lists the test files of dir in the new files.
func (m *memChange) TestFiles(dir string) []string {
	var out []string
	for p := range m.new {
		if path.Dir(p) == dir && isTestFile(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
