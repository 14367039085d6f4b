package engine

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/filesarg"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// maxListedFiles bounds the files a {files} gate is given outside git, where the tree is walked.
const maxListedFiles = 200_000

// fileLister lists, once per run, the files {files} gates choose from: the change's files, or
// with --all every tracked file.
type fileLister struct {
	snap    *snapshot.Snapshot
	all     bool
	changes *snapshot.ChangedFiles // the selection's, when it read them

	listed bool
	files  []string
	whole  bool // files is every file of the project, not a change
	err    error
}

// list returns the candidate files (root-relative, slash-separated; some may be deleted) and
// whether they are the whole project rather than a change.
func (l *fileLister) list(ctx context.Context) ([]string, bool, error) {
	if l.listed {
		return l.files, l.whole, l.err
	}
	l.listed = true
	if !l.all {
		changes := l.changes
		if changes == nil {
			changes, l.err = changedFiles(ctx, l.snap)
		}
		if l.err != nil || !changes.All {
			if changes != nil {
				l.files = changes.Files
			}
			return l.files, false, l.err
		}
		// No change to scope by (outside git, or no base and nothing changed): the whole project.
	}
	l.whole = true
	l.files, l.err = l.everyFile(ctx)
	return l.files, true, l.err
}

// maxHiddenBytes bounds what git lists of the files its exclude file hides.
const maxHiddenBytes = 8 << 20

// changedFiles are the change's files, with those git is told not to show (hiddenFiles): they
// scope gates and are given to {files} as any other.
func changedFiles(ctx context.Context, snap *snapshot.Snapshot) (*snapshot.ChangedFiles, error) {
	set, err := snap.ChangedFiles(ctx)
	if err != nil || !set.InGit {
		return set, err
	}
	if hidden := hiddenFiles(ctx, snap); len(hidden) > 0 {
		out := *set
		out.Files = mergeFiles(set.Files, hidden)
		out.All = false
		return &out, nil
	}
	return set, nil
}

// hiddenFiles are the change's files git is told not to show: edited behind assume-unchanged or
// skip-worktree, or new and listed in .git/info/exclude (a file no one else sees ignored, unlike
// .gitignore's). A tool reads them as it reads any other; the gate's paths still choose among
// them. What cannot be listed adds nothing.
func hiddenFiles(ctx context.Context, snap *snapshot.Snapshot) []string {
	out, _ := integrity.HiddenEdited(ctx, snap)
	return append(out, excludedFiles(ctx, snap.Root())...)
}

func mergeFiles(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// excludedFiles are the untracked files .git/info/exclude hides and no .gitignore ignores.
func excludedFiles(ctx context.Context, root string) []string {
	exclude, err := excludeFile(ctx, root)
	if err != nil || !hasPatterns(exclude) {
		return nil // the common case: git's template file, comments only; no walk of the tree
	}
	hidden, err := git.Output(ctx, root, maxHiddenBytes, "ls-files", "-z", "--others", "--ignored", "--exclude-from="+exclude)
	if err != nil || len(hidden) == 0 {
		return nil
	}
	ignored, err := git.Output(ctx, root, maxHiddenBytes, "ls-files", "-z", "--others", "--ignored", "--exclude-per-directory=.gitignore")
	if err != nil {
		return nil
	}
	gitignored := map[string]bool{}
	for _, f := range git.SplitNUL(ignored) {
		gitignored[f] = true
	}
	var out []string
	for _, f := range git.SplitNUL(hidden) {
		if !gitignored[f] && len(out) < maxListedFiles {
			out = append(out, f)
		}
	}
	return out
}

// excludeFile is the path of the repository's info/exclude: in its common git directory, found
// from where `.git` is without starting git, else as git names it.
func excludeFile(ctx context.Context, root string) (string, error) {
	if layout, err := git.FindLayout(root); err == nil {
		return filepath.Join(layout.CommonDir, "info", "exclude"), nil
	}
	where, err := git.Output(ctx, root, 64<<10, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude")
	return strings.TrimSpace(string(where)), err
}

// maxExcludeBytes bounds the read of .git/info/exclude.
const maxExcludeBytes = 1 << 20

// hasPatterns says whether git's exclude file holds a pattern (a line neither blank nor a
// comment); read as every file gauntlet reads: a regular file, bounded.
func hasPatterns(file string) bool {
	f, _, err := safefile.Open(file, time.Now().Add(5*time.Second))
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxExcludeBytes, time.Now().Add(5*time.Second))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return true
		}
	}
	return false
}

// everyFile is every tracked file in git, and the untracked files not ignored (a new file is
// the project's before it is added); outside git, every file under the root (at most
// maxListedFiles, and no longer than the run).
func (l *fileLister) everyFile(ctx context.Context) ([]string, error) {
	tree, err := l.snap.Tree(ctx)
	if err != nil {
		return walkFiles(ctx, l.snap.Root())
	}
	entries, err := tree.Index(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Path)
	}
	added := false
	for _, e := range tree.Entries {
		if e.Untracked {
			out, added = append(out, e.Path), true
		}
	}
	if added {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out, nil
}

// walkFiles lists the files under root, outside git: at most maxListedFiles, none of .git or
// .gauntlet, and no longer than the run.
func walkFiles(ctx context.Context, root string) ([]string, error) {
	var out []string
	werr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return context.Cause(ctx) // the run ended: no walk outlives it
		}
		if err != nil || len(out) >= maxListedFiles {
			return fs.SkipAll
		}
		if d.IsDir() {
			return skipStateDirs(d)
		}
		if rel, err := filepath.Rel(root, p); err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out, werr
}

// skipStateDirs skips git's and gauntlet's own directories.
func skipStateDirs(d fs.DirEntry) error {
	if d.Name() == ".git" || d.Name() == ".gauntlet" {
		return fs.SkipDir
	}
	return nil
}

// withFiles gives each gate of run that names {files} its files: the candidates that match its
// paths (all of them without paths) and not its exclude, that exist now as regular files (a
// deleted file or a symbolic link is never passed), under the gate's dir and relative to it. A
// gate left with none is skipped, and says why.
func withFiles(ctx context.Context, root string, run []gates.Gate, l *fileLister) ([]gates.Gate, map[string]string) {
	skipped := map[string]string{}
	var out []gates.Gate
	for _, g := range run {
		if !filesarg.Uses(g) || !isCheck(g) {
			out = append(out, g)
			continue
		}
		candidates, whole, err := l.list(ctx)
		if err != nil {
			g.Files = nil
			skipped[g.Name] = "{files}: the files could not be listed: " + err.Error()
			continue
		}
		g.Files = gateFiles(root, g, candidates)
		if len(g.Files) == 0 {
			skipped[g.Name] = noFilesReason(g, whole)
			continue
		}
		out = append(out, g)
	}
	return out, skipped
}

// gateFiles are the candidates a gate is given, relative to its dir, each once. A symbolic link
// is never passed itself (some tools, prettier among them, fail on a link they are named; one
// to a directory is no file): one the gate's paths choose gives the regular file it points to
// inside the project, which is what the tool would read through it, whatever that file's name
// (calc.go made a link to calc.go.txt is still compiled, and still to be formatted). A name
// that starts with - is given as ./-x.go, so that no tool takes it for an option.
func gateFiles(root string, g gates.Gate, candidates []string) []string {
	dir := strings.Trim(filepath.ToSlash(g.Dir), "/")
	var out []string
	seen := map[string]bool{}
	for _, f := range candidates {
		if !selectsFile(g, f) {
			continue
		}
		if !regularFile(root, f) {
			var ok bool
			if f, ok = linkTarget(root, f); !ok {
				continue
			}
		}
		if rel, ok := underDir(dir, f); ok && !seen[rel] {
			seen[rel] = true
			out = append(out, notAnOption(rel))
		}
	}
	return out
}

// linkTarget is the root-relative path of the regular file the link f resolves to; false when
// f is no link, or resolves to no regular file inside root.
func linkTarget(root, f string) (string, bool) {
	p := filepath.Join(root, filepath.FromSlash(f))
	if info, err := os.Lstat(p); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(realRoot, target)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	return rel, regularFile(realRoot, rel)
}

// notAnOption gives a file whose name starts with - as ./-x.go.
func notAnOption(rel string) string {
	if strings.HasPrefix(rel, "-") {
		return "./" + rel
	}
	return rel
}

// selectsFile says whether g's paths (all files without paths), exclude and glob choose f.
func selectsFile(g gates.Gate, f string) bool {
	if len(g.Paths) > 0 && matchesAny(g.Paths, f) == "" || matchesAny(g.Exclude, f) != "" {
		return false
	}
	return len(g.Glob) == 0 || matchesAny(g.Glob, f) != ""
}

// underDir is f relative to dir ("" or "." for the root); false when f is not under it.
func underDir(dir, f string) (string, bool) {
	if dir == "" || dir == "." {
		return f, true
	}
	return strings.CutPrefix(f, dir+"/")
}

// regularFile says whether f exists under root as a regular file, not a link.
func regularFile(root, f string) bool {
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f)))
	return err == nil && info.Mode().IsRegular()
}

func noFilesReason(g gates.Gate, whole bool) string {
	what := "no file of the change"
	if whole {
		what = "no file of the project"
	}
	where := ""
	switch {
	case len(g.Paths) > 0 && len(g.Glob) > 0:
		where = " matches its paths and glob"
	case len(g.Paths) > 0:
		where = " matches its paths"
	case len(g.Glob) > 0:
		where = " matches its glob"
	}
	if d := strings.Trim(filepath.ToSlash(g.Dir), "/"); d != "" && d != "." {
		where += " under " + path.Clean(d)
	}
	if where == "" {
		where = " exists now"
	}
	return "{files}: " + what + where
}

// filesReason says what a {files} gate runs on, for `gauntlet list` and the reports. With --all
// its paths chose no run, but still choose its files: the reason says so.
func filesReason(g gates.Gate, all bool) string {
	n := strconv.Itoa(len(g.Files)) + " files"
	if len(g.Files) == 1 {
		n = "1 file"
	}
	if all && (len(g.Paths) > 0 || len(g.Glob) > 0) {
		return "{files}: " + n + " (every tracked file its paths match)"
	}
	return "{files}: " + n
}
