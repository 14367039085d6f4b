// Package changes finds the files a change touches, by asking git, so that gates with `paths`
// run only when something they care about changed.
package changes

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// Set is the change a run is scoped to.
type Set struct {
	// Files are the changed paths, slash-separated and relative to the project root, sorted and
	// unique. Files outside the project root are dropped.
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

// Detect lists the files changed in the project at projectRoot: commits since the merge-base of
// base and HEAD, plus staged, unstaged and untracked-but-not-ignored files. base "" means auto
// (origin/HEAD, then main, then master). When projectRoot is a subdirectory of the work tree,
// paths are relative to projectRoot and changes elsewhere in the repository are ignored, because
// gates and their `paths` globs are relative to the project root.
func Detect(ctx context.Context, projectRoot, base string) (Set, error) {
	inGit, whyNot, err := insideWorkTree(ctx, projectRoot)
	if err != nil {
		return Set{}, err
	}
	if !inGit {
		return Set{All: true, BaseErr: whyNot}, nil
	}

	set := Set{InGit: true}
	ref, whyNone, err := resolveBase(ctx, projectRoot, base)
	if err != nil {
		return Set{}, err
	}
	hasHead := isCommit(ctx, projectRoot, "HEAD")

	var lists [][]string
	switch {
	case ref == "":
		set.BaseErr = whyNone
	case !hasHead:
		set.BaseErr = "HEAD has no commits yet"
	default:
		mergeBase, err := runGit(ctx, projectRoot, "merge-base", ref, "HEAD")
		if err != nil {
			// Unrelated histories or a shallow clone: there is no common point to diff from.
			set.BaseErr = fmt.Sprintf("no merge-base between %s and HEAD", ref)
			break
		}
		set.Base = ref
		committed, err := diffNames(ctx, projectRoot, strings.TrimSpace(string(mergeBase)), "HEAD")
		if err != nil {
			return Set{}, err
		}
		lists = append(lists, committed)
	}

	for _, args := range [][]string{
		diffArgs("--cached"),
		diffArgs(),
		append([]string{"ls-files", "--others", "--exclude-standard", "-z"}, scope...),
	} {
		out, err := runGit(ctx, projectRoot, args...)
		if err != nil {
			return Set{}, fmt.Errorf("list changed files: %w", err)
		}
		lists = append(lists, git.SplitNUL(out))
	}

	set.Files = merge(lists)
	set.All = set.Base == "" && len(set.Files) == 0
	return set, nil
}

// scope limits every listing to the project directory and keeps gauntlet's state directory out
// at the source, so that thousands of log files are never even listed.
var scope = []string{"--", ".", ":(exclude)" + state.Name}

// diffArgs asks for changed names only, relative to the working directory. --no-renames makes a
// rename count as both of its paths; the other flags keep user configuration from changing the
// output.
func diffArgs(extra ...string) []string {
	args := []string{"diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "--relative"}
	args = append(args, extra...)
	return append(args, scope...)
}

func diffNames(ctx context.Context, dir, from, to string) ([]string, error) {
	out, err := runGit(ctx, dir, diffArgs(from, to)...)
	if err != nil {
		return nil, fmt.Errorf("list committed changes: %w", err)
	}
	return git.SplitNUL(out), nil
}

// insideWorkTree reports whether dir is in a git work tree. Not being in one, or git not being
// installed, is a normal state (every gate runs) and comes back with the reason; any other git
// failure is an error.
func insideWorkTree(ctx context.Context, dir string) (bool, string, error) {
	out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree")
	switch {
	case err == nil && strings.TrimSpace(string(out)) == "true":
		return true, "", nil
	case err == nil:
		return false, "not inside a git work tree", nil
	case errors.Is(err, exec.ErrNotFound):
		return false, "git is not installed", nil
	case git.IsNotRepo(err):
		return false, "not inside a git work tree", nil
	default:
		return false, "", fmt.Errorf("detect git work tree in %s: %w", dir, err)
	}
}

// merge unites the listings, sorted and without repeats.
func merge(lists [][]string) []string {
	files := slices.Concat(lists...)
	slices.Sort(files)
	return slices.Compact(files)
}
