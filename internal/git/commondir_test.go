package git

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// The worktrees of one repository, and any directory inside them, find the same common dir.
func TestFindLayoutSharesTheCommonDirAcrossWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	main := filepath.Join(base, "main")
	os.MkdirAll(filepath.Join(main, "sub", "deep"), 0o755)
	gitIn(t, main, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(main, "f"), []byte("x"), 0o644)
	gitIn(t, main, "add", "-A")
	gitIn(t, main, "commit", "-q", "-m", "c")
	gitIn(t, main, "worktree", "add", "-q", filepath.Join(base, "linked"))

	want := filepath.Join(main, ".git")
	for dir, top := range map[string]string{
		main:                               main,
		filepath.Join(main, "sub", "deep"): main,
		filepath.Join(base, "linked"):      filepath.Join(base, "linked"),
	} {
		l, err := FindLayout(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if l.CommonDir != want || l.TopLevel != top {
			t.Errorf("%s: layout %+v, want common %s, top %s", dir, l, want, top)
		}
	}
}

func TestFindLayoutOutsideGit(t *testing.T) {
	dir := t.TempDir()
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".git")); err == nil {
		t.Skip("the temp dir is inside a repository")
	}
	if _, err := FindLayout(dir); !errors.Is(err, ErrNoLayout) {
		t.Fatalf("FindLayout outside git: %v", err)
	}
}

// A `.git` file that is not a pointer, or a FIFO planted as one, is an error, never a hang.
func TestFindLayoutRefusesBadPointers(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".git"), []byte("not a pointer\n"), 0o644)
	if _, err := FindLayout(dir); err == nil {
		t.Fatal("a .git file without gitdir: was accepted")
	}
	fifoDir := t.TempDir()
	gitDir := filepath.Join(fifoDir, "gd")
	os.Mkdir(gitDir, 0o755)
	os.WriteFile(filepath.Join(fifoDir, ".git"), []byte("gitdir: gd\n"), 0o644)
	if err := testos.Mkfifo(filepath.Join(gitDir, "commondir")); err != nil {
		t.Skip(err)
	}
	if _, err := FindLayout(fifoDir); err == nil {
		t.Fatal("a FIFO commondir was read")
	}
}
