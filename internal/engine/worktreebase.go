package engine

import (
	"context"
	"strings"
	"time"
)

// When a run in the work tree is the base's measure. A tree that git shows as the base commit is
// not always the base: files git ignores are still compiled and collected (an excluded
// zz_test.go whose TestMain runs nothing, a zz.go whose init() narrows -test.run), and a session's
// agent can make the tree look like the base for one run (`git stash`, `gauntlet run`, `git stash
// pop`). So a work tree's census and coverage are kept as the base's only when no test file git
// ignores is present, and a session believes them only when the state they measured was read
// before the session started (gauntlet init --run, a run of main, the session-start judge, which
// is asked for before the session is pinned). Otherwise the base is measured in its own checkout,
// where no file of the work tree is.

// hiddenTestPatterns are the test files of the runners gauntlet counts, as git's ignored files
// are listed for them.
var hiddenTestPatterns = []string{
	"**/*_test.go", "**/test_*.py", "**/*_test.py", "**/conftest.py",
	"**/*.test.js", "**/*.test.ts", "**/*.test.mjs", "**/*.test.cjs", "**/*.test.jsx", "**/*.test.tsx",
	"**/*.spec.js", "**/*.spec.ts", "**/*.spec.mjs", "**/*.spec.cjs", "**/*.spec.jsx", "**/*.spec.tsx",
}

// installedDirs hold installed packages, whose own test files no gate of the project runs.
var installedDirs = []string{"node_modules/", "site-packages/", ".venv/", "venv/", ".tox/", ".nox/", "vendor/"}

// isBase says whether the work tree is the base commit as far as a census can tell: no change
// but the caller's own files, and no test file git ignores.
func (j *baseJudge) isBase(ctx context.Context) bool {
	j.readChange(ctx)
	return j.from != "" && j.unchanged && len(j.hiddenTests(ctx)) == 0
}

// hiddenTests are the test files git ignores in the work tree (.gitignore, .git/info/exclude),
// outside installed packages; read once, and only for a tree with no change.
func (j *baseJudge) hiddenTests(ctx context.Context) []string {
	j.hiddenOnce.Do(func() {
		if j.snap == nil {
			return
		}
		tree, err := j.snap.Tree(ctx)
		if err != nil {
			j.hidden = []string{"(the ignored files could not be listed)"}
			return
		}
		list, err := tree.Ignored(ctx, hiddenTestPatterns)
		if err != nil {
			j.hidden = []string{"(the ignored files could not be listed)"}
			return
		}
		for _, p := range list {
			if !inInstalled(p) {
				j.hidden = append(j.hidden, p)
			}
		}
	})
	return j.hidden
}

func inInstalled(p string) bool {
	for _, dir := range installedDirs {
		if strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir) {
			return true
		}
	}
	return false
}

// stateTime is when the state this run judges was read: the judge's request, else now.
func (j *baseJudge) stateTime() time.Time {
	if !j.stateAt.IsZero() {
		return j.stateAt
	}
	return time.Now().UTC()
}

// believed says whether stored measures are the base's for this run: measured in the base's
// checkout, or in a work tree read before the session was pinned (outside a session, any).
func (j *baseJudge) believed(st storedCensus) bool {
	return !st.WorkTree || j.sessionPinned.IsZero() || !st.At.After(j.sessionPinned)
}
