package git

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxPointerFile bounds the `.git` file of a linked worktree and its `commondir`: one path each.
const maxPointerFile = 4 << 10

// Layout is where a work tree's repository lives, read from the files git itself keeps, without
// starting git: what lets every worktree of one repository share what gauntlet remembers.
type Layout struct {
	// TopLevel is the work tree's root: the directory that holds `.git`.
	TopLevel string
	// CommonDir is the repository's common git directory, the same for all its worktrees.
	CommonDir string
}

// ErrNoLayout means no `.git` was found above the directory.
var ErrNoLayout = errors.New("not inside a git work tree")

// FindLayout walks up from dir to the `.git` that holds it: a directory (the main worktree), or a
// file `gitdir: PATH` (a linked worktree or a submodule), whose PATH may name its `commondir`.
func FindLayout(dir string) (Layout, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	deadline := time.Now().Add(Timeout)
	for {
		dotgit := filepath.Join(dir, ".git")
		info, err := os.Lstat(dotgit)
		switch {
		case err == nil && info.IsDir():
			return Layout{TopLevel: dir, CommonDir: dotgit}, nil
		case err == nil && info.Mode().IsRegular():
			gitDir, err := pointer(dotgit, "gitdir: ", deadline)
			if err != nil {
				return Layout{}, err
			}
			if !filepath.IsAbs(gitDir) {
				gitDir = filepath.Join(dir, gitDir)
			}
			common := gitDir
			if rel, err := pointer(filepath.Join(gitDir, "commondir"), "", deadline); err == nil {
				common = rel
				if !filepath.IsAbs(common) {
					common = filepath.Join(gitDir, common)
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				return Layout{}, err
			}
			return Layout{TopLevel: dir, CommonDir: filepath.Clean(common)}, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return Layout{}, fmt.Errorf("find the repository: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Layout{}, ErrNoLayout
		}
		dir = parent
	}
}

// pointer reads a one-line file git keeps, with an optional prefix.
func pointer(path, prefix string, deadline time.Time) (string, error) {
	data, err := safefile.ReadFile(path, maxPointerFile, deadline)
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	s := strings.TrimSpace(string(line))
	if !strings.HasPrefix(s, prefix) || len(s) == len(prefix) {
		return "", fmt.Errorf("%s: not a git pointer file", path)
	}
	return strings.TrimPrefix(s, prefix), nil
}
