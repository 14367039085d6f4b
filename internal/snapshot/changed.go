package snapshot

import (
	"context"
	"errors"
	"slices"
)

// ChangedFiles is the change a run is scoped to: the files it touches, so that gates with
// `paths` run only when something they care about changed.
type ChangedFiles struct {
	// Files are the changed paths, slash-separated and relative to the project root, sorted and
	// unique: commits since the merge-base of the base and HEAD, staged, unstaged and untracked
	// (not ignored) files. Files outside the project root are left out.
	Files []string
	// InGit is false when the project root is not inside a git work tree.
	InGit bool
	// Base is the base ref actually used; "" when none.
	Base string
	// BaseErr says why there is no base.
	BaseErr string
	// All is true when scoping cannot apply and every gate must run: outside git, or no base
	// found and nothing changed.
	All bool
}

// ChangedFiles lists the files the change touches. Outside git it is not an error: every gate
// runs (All), and BaseErr says why. An explicit base that does not exist is an error wrapping
// ErrBaseNotFound.
//
// What the commits since the merge-base changed is read from the diff of the working tree
// against the merge-base, which the patch shares: a file a commit changed and the work tree
// changed back differs from HEAD, so git status lists it.
func (s *Snapshot) ChangedFiles(ctx context.Context) (*ChangedFiles, error) {
	tree, err := s.Tree(ctx)
	if errors.Is(err, ErrNotGit) {
		why := "not inside a git work tree"
		if errors.Is(err, errNoGitProgram) {
			why = "git is not installed"
		}
		return &ChangedFiles{All: true, BaseErr: why}, nil
	}
	if err != nil {
		return nil, err
	}
	base, err := s.Base(ctx)
	if err != nil {
		return nil, err
	}
	set := &ChangedFiles{InGit: true, BaseErr: base.WhyNone}
	for _, e := range tree.Entries {
		set.Files = append(set.Files, e.Path)
	}
	if base.MergeBase != "" {
		d, err := s.diffWith(ctx, 0)
		if err != nil {
			return nil, err
		}
		set.Base = base.Ref
		set.Files = append(set.Files, d.names...)
	}
	slices.Sort(set.Files)
	set.Files = slices.Compact(set.Files)
	set.All = set.Base == "" && len(set.Files) == 0
	return set, nil
}
