package snapshot

import (
	"context"
	"slices"
)

// State is one reading of the work tree kept to compare with a later one: for every path git
// status lists, what it says of the path and, where the work tree differs from the index, the
// content as it was when read. Files git ignores (installed dependencies, build output) are not
// in it: they are not part of the change.
type State map[string]string

// Capture reads the state of the tree now: the content of every changed file is hashed at once,
// since a later hash would see what came after.
func Capture(ctx context.Context, t *Tree) (State, error) {
	s := make(State, len(t.Entries))
	for _, e := range t.Entries {
		v := e.Meta
		if e.Worktree {
			d, err := t.FileDigest(ctx, e.Path)
			if err != nil {
				return nil, err
			}
			v += "\x00" + string(d)
		}
		s[e.Path] = v
	}
	return s, nil
}

// Changed names, in path order, the paths whose state differs in after: the files something
// run in between created, changed, deleted or brought back to what git has.
func (s State) Changed(after State) []string {
	var out []string
	for p, v := range s {
		if w, ok := after[p]; !ok || w != v {
			out = append(out, p)
		}
	}
	for p := range after {
		if _, ok := s[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
