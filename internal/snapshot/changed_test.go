package snapshot

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isolateGit keeps the tests' git calls, and Detect's, away from the machine's configuration
// and from any repository around the temp dir.
func isolateGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_DIR":             "",
		"GIT_WORK_TREE":       "",
		"GIT_INDEX_FILE":      "",
	} {
		t.Setenv(k, v)
		if v == "" {
			os.Unsetenv(k)
		}
	}
}

// tempDir returns a fresh directory that git cannot mistake for part of an enclosing repository.
func tempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	return dir
}

func newRepo(t *testing.T) string {
	t.Helper()
	isolateGit(t)
	dir := tempDir(t)
	run(t, dir, "git", "init", "-q", "-b", "main")
	return dir
}

func run(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	run(t, dir, "git", "add", "-A")
	run(t, dir, "git", "commit", "-q", "-m", msg)
}

func detect(t *testing.T, dir, base string) *ChangedFiles {
	t.Helper()
	set, err := changedFiles(context.Background(), dir, base)
	if err != nil {
		t.Fatalf("ChangedFiles: %v", err)
	}
	return set
}

func assertFiles(t *testing.T, set *ChangedFiles, want ...string) {
	t.Helper()
	if !slices.Equal(set.Files, want) {
		t.Errorf("Files = %q, want %q", set.Files, want)
	}
}

func TestCleanTreeOnBaseHasNoChanges(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")

	set := detect(t, dir, "main")
	assertFiles(t, set)
	if !set.InGit || set.Base != "main" || set.All {
		t.Errorf("set = %+v, want in git, base main, not All", set)
	}
}

func TestFeatureBranchCollectsEveryKindOfChange(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, "edited.txt", "v1")
	write(t, dir, "old-name.txt", "rename me")
	write(t, dir, "untouched.txt", "same")
	commitAll(t, dir, "init")

	run(t, dir, "git", "switch", "-q", "-c", "feature")
	write(t, dir, "committed.txt", "c")
	run(t, dir, "git", "mv", "old-name.txt", "new-name.txt")
	commitAll(t, dir, "feature work")

	// A commit on main after the branch point is not part of the feature's change.
	run(t, dir, "git", "switch", "-q", "main")
	write(t, dir, "main-only.txt", "m")
	commitAll(t, dir, "main moves on")
	run(t, dir, "git", "switch", "-q", "feature")

	write(t, dir, "staged.txt", "s")
	run(t, dir, "git", "add", "staged.txt")
	write(t, dir, "edited.txt", "v2")
	write(t, dir, "untracked file.txt", "u")
	write(t, dir, "debug.log", "ignored")
	// gauntlet's own state never counts, ignored by .gitignore or not, staged or not.
	write(t, dir, ".gauntlet/logs/20261121T093000Z-4f2a/vet.log", "log")
	write(t, dir, ".gauntlet/state/ledger.json", "{}")
	run(t, dir, "git", "add", "-f", ".gauntlet/state/ledger.json")

	set := detect(t, dir, "")
	assertFiles(t, set, "committed.txt", "edited.txt", "new-name.txt", "old-name.txt", "staged.txt", "untracked file.txt")
	if set.Base != "main" || set.All || !set.InGit {
		t.Errorf("set = %+v, want base main (auto), not All", set)
	}
}

func TestCommittedStateDirIsNeverListed(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")
	run(t, dir, "git", "switch", "-q", "-c", "feature")
	write(t, dir, ".gauntlet/last-run.json", "{}")
	write(t, dir, "b.txt", "b")
	commitAll(t, dir, "oops, committed the state dir")
	write(t, dir, ".gauntlet/last-run.json", "{\"changed\":true}")

	assertFiles(t, detect(t, dir, "main"), "b.txt")
}

func TestAwkwardFileNames(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")
	names := []string{"dir/with space.txt", "new\nline.txt", "tab\there.txt", "ünïcode.txt", `quote".txt`}
	for _, n := range names {
		write(t, dir, n, "x")
	}

	want := slices.Clone(names)
	slices.Sort(want)
	assertFiles(t, detect(t, dir, "main"), want...)
}

func TestOutsideGitRunsEverything(t *testing.T) {
	isolateGit(t)
	dir := tempDir(t)
	write(t, dir, "a.txt", "a")

	set := detect(t, dir, "")
	if set.InGit || !set.All || len(set.Files) != 0 || set.BaseErr == "" {
		t.Errorf("set = %+v, want outside git, All, a reason", set)
	}
}

func TestNoBaseFound(t *testing.T) {
	dir := newRepo(t)
	run(t, dir, "git", "switch", "-q", "-c", "trunk")
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")

	clean := detect(t, dir, "")
	if !clean.All || clean.Base != "" || clean.BaseErr == "" || len(clean.Files) != 0 {
		t.Errorf("clean tree without base: %+v, want All with a reason", clean)
	}

	write(t, dir, "new.txt", "n")
	dirty := detect(t, dir, "")
	if dirty.All {
		t.Errorf("dirty tree without base: %+v, want scoped to the dirty files", dirty)
	}
	assertFiles(t, dirty, "new.txt")
}

func TestFreshRepositoryWithoutCommits(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "staged.txt", "s")
	run(t, dir, "git", "add", "staged.txt")
	write(t, dir, "untracked.txt", "u")

	set := detect(t, dir, "")
	assertFiles(t, set, "staged.txt", "untracked.txt")
	if set.All || set.Base != "" || set.BaseErr == "" {
		t.Errorf("set = %+v, want scoped, no base, a reason", set)
	}
}

func TestExplicitBaseMustExist(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")

	for _, base := range []string{"no-such-branch", "--output=/tmp/x"} {
		_, err := changedFiles(context.Background(), dir, base)
		if !errors.Is(err, ErrBaseNotFound) || !strings.Contains(err.Error(), base) {
			t.Errorf("changedFiles(base %q) error = %v, want ErrBaseNotFound naming it", base, err)
		}
	}
}

func TestExplicitBaseCanBeAnyCommit(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "one")
	run(t, dir, "git", "tag", "v1")
	write(t, dir, "b.txt", "b")
	commitAll(t, dir, "two")

	set := detect(t, dir, "v1")
	assertFiles(t, set, "b.txt")
	if set.Base != "v1" {
		t.Errorf("Base = %q, want v1", set.Base)
	}
}

func TestAutoBasePrefersOriginHead(t *testing.T) {
	upstream := newRepo(t)
	write(t, upstream, "a.txt", "a")
	commitAll(t, upstream, "init")
	clone := filepath.Join(tempDir(t), "clone")
	run(t, upstream, "git", "clone", "-q", upstream, clone)
	run(t, clone, "git", "switch", "-q", "-c", "feature")
	write(t, clone, "b.txt", "b")
	commitAll(t, clone, "feature")

	set := detect(t, clone, "")
	if set.Base != "origin/main" {
		t.Errorf("Base = %q, want origin/main", set.Base)
	}
	assertFiles(t, set, "b.txt")
}

func TestProjectRootInSubdirectory(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "top.txt", "t")
	write(t, dir, "svc/main.go", "package main")
	commitAll(t, dir, "init")
	run(t, dir, "git", "switch", "-q", "-c", "feature")
	write(t, dir, "svc/internal/x.go", "package internal")
	write(t, dir, "other/y.go", "package other")
	commitAll(t, dir, "feature")
	write(t, dir, "svc/main.go", "package main // edited")
	write(t, dir, "top.txt", "edited")
	write(t, dir, "svc/untracked.txt", "u")
	write(t, dir, "elsewhere.txt", "u")
	write(t, dir, "svc/.gauntlet/last-run.json", "{}")

	set := detect(t, filepath.Join(dir, "svc"), "main")
	assertFiles(t, set, "internal/x.go", "main.go", "untracked.txt")
}

func TestDetectMissingDirectoryIsAnError(t *testing.T) {
	isolateGit(t)
	if _, err := changedFiles(context.Background(), filepath.Join(tempDir(t), "missing"), ""); err == nil {
		t.Error("Detect in a missing directory succeeded")
	}
}

func TestDetectHonoursCancelledContext(t *testing.T) {
	dir := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := changedFiles(ctx, dir, ""); err == nil {
		t.Error("Detect with a cancelled context succeeded")
	}
}

func TestStateDirIgnoredEvenWithLiteralPathspecs(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	commitAll(t, dir, "init")
	// Turns the pathspec exclusion into a literal name, so only the second filter is left.
	t.Setenv("GIT_LITERAL_PATHSPECS", "1")
	write(t, dir, ".gauntlet/last-run.json", "{}")
	write(t, dir, "b.txt", "b")

	assertFiles(t, detect(t, dir, "main"), "b.txt")
}

func changedFiles(ctx context.Context, dir, base string) (*ChangedFiles, error) {
	return New(dir, Options{Base: base}).ChangedFiles(ctx)
}

// git status names an untracked directory, not its files: they are listed only then, with the
// files git ignores left out, and a project root inside such a directory sees all its files.
func TestUntrackedDirectoriesAreListedFileByFile(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a.txt", "a")
	write(t, dir, ".gitignore", "*.log\n")
	commitAll(t, dir, "init")
	write(t, dir, "new/pkg/x.go", "package pkg")
	write(t, dir, "new/pkg/build.log", "ignored")
	write(t, dir, "new/y.txt", "y")
	assertFiles(t, detect(t, dir, "main"), "new/pkg/x.go", "new/y.txt")

	// The project root is new/pkg, inside the untracked directory new/.
	assertFiles(t, detect(t, filepath.Join(dir, "new", "pkg"), "main"), "x.go")
}

// The tree read without -uall (untracked directories listed when status names them) is the one
// git status -uall describes: the fingerprint and the cache keys do not depend on how it was read.
func TestTreeMatchesStatusOfEveryUntrackedFile(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, "tracked.txt", "t")
	commitAll(t, dir, "init")
	write(t, dir, "tracked.txt", "edited")
	write(t, dir, "new/deep/er/f.txt", "f")
	write(t, dir, "new/g.log", "ignored")
	write(t, dir, "[glob]/h.txt", "h")
	write(t, dir, "top.txt", "u")
	write(t, dir, ".gauntlet/last-run.json", "{}")
	tree, err := New(dir, Options{}).Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, dir, "git", "status", "--porcelain=v2", "-z", "-uall", "--branch", "--no-renames", "--", ".", ":(exclude).gauntlet")
	want, err := parse([]byte(out), "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tree.Entries, want.Entries) {
		t.Errorf("tree:\n%+v\nstatus -uall:\n%+v", tree.Entries, want.Entries)
	}
}
