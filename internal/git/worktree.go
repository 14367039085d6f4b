package git

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// workTrees remembers workTreeOf's answers: a stop asks git several times in the same directory.
var workTrees sync.Map // dir -> workTree

type workTree struct {
	top string
	ok  bool
}

// workTreeOf is the work tree git must read for a call in dir: the directory holding the `.git`
// above dir, the tree gauntlet's gates run in. git itself would read the tree core.worktree names,
// and that setting is in the repository's config, within reach of the agent being judged: pointed
// at a pristine copy of the base, it would have every reading of the change measure the copy.
// GIT_WORK_TREE wins over core.worktree. ok is false, and git left to its own discovery, when the
// environment names the repository itself (GIT_DIR or GIT_WORK_TREE: the user's explicit layout),
// when no `.git` is above dir, or when dir is inside the git directory.
func workTreeOf(dir string) (string, bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	if known, ok := workTrees.Load(abs); ok {
		wt := known.(workTree)
		return wt.top, wt.ok
	}
	top, ok := findTop(abs)
	workTrees.Store(abs, workTree{top, ok})
	return top, ok
}

// findTop is the top of the work tree holding dir (FindLayout's), unless dir is inside its git
// directory.
func findTop(dir string) (string, bool) {
	layout, err := FindLayout(dir)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(layout.TopLevel, dir)
	inGitDir := err == nil && (rel == ".git" || strings.HasPrefix(rel, ".git"+string(filepath.Separator)))
	return layout.TopLevel, !inGitDir
}
