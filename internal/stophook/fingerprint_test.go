package stophook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// fpIsolateGit keeps the user's and the system's git configuration out of the tests.
func fpIsolateGit(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
	} {
		tb.Setenv(k, v)
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} {
		tb.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// fpTempDir returns a directory that git cannot mistake for part of an enclosing repository.
func fpTempDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	tb.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	return dir
}

func fpNewRepo(tb testing.TB) string {
	tb.Helper()
	fpIsolateGit(tb)
	dir := fpTempDir(tb)
	fpRun(tb, dir, "git", "init", "-q", "-b", "main")
	return dir
}

func fpRun(tb testing.TB, dir string, argv ...string) {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

func fpWrite(tb testing.TB, dir, name, content string) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func fpMust(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func fingerprintOf(tb testing.TB, root string, config []byte) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	fp, err := Fingerprint(ctx, root, config)
	if err != nil {
		tb.Fatalf("Fingerprint: %v", err)
	}
	return fp
}

// fpBaseRepo is a committed repository with a tracked file in a subdirectory, an ignore rule and
// one untracked file, so that every kind of change has something to act on.
func fpBaseRepo(t *testing.T) string {
	t.Helper()
	dir := fpNewRepo(t)
	fpWrite(t, dir, "a.txt", "alpha\n")
	fpWrite(t, dir, "sub/b.txt", "beta\n")
	fpWrite(t, dir, ".gitignore", "ignored.txt\n")
	fpRun(t, dir, "git", "add", "-A")
	fpRun(t, dir, "git", "commit", "-q", "-m", "base")
	fpWrite(t, dir, "u.txt", "untracked\n")
	return dir
}

func TestFingerprintTracksState(t *testing.T) {
	config := []byte("version: 1\n")
	tests := []struct {
		name        string
		setup       func(t *testing.T, dir string)
		change      func(t *testing.T, dir string)
		config      []byte // the config after the change; nil means unchanged
		wantChanged bool
	}{
		{name: "nothing", change: func(t *testing.T, dir string) {}},
		{name: "tracked file touched, content unchanged", change: func(t *testing.T, dir string) {
			future := time.Now().Add(time.Hour)
			fpMust(t, os.Chtimes(filepath.Join(dir, "a.txt"), future, future))
		}},
		{name: "tracked file content", wantChanged: true, change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "a.txt", "alpha changed\n")
		}},
		{name: "tracked file content in a subdirectory", wantChanged: true, change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "sub/b.txt", "beta changed\n")
		}},
		{name: "staging a change", wantChanged: true,
			setup:  func(t *testing.T, dir string) { fpWrite(t, dir, "a.txt", "alpha changed\n") },
			change: func(t *testing.T, dir string) { fpRun(t, dir, "git", "add", "a.txt") },
		},
		// The working tree matches the index both times: only the staged diff tells them apart.
		{name: "a change written and staged at once", wantChanged: true, change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "a.txt", "alpha changed\n")
			fpRun(t, dir, "git", "add", "a.txt")
		}},
		{name: "committing a staged change", wantChanged: true,
			setup: func(t *testing.T, dir string) {
				fpWrite(t, dir, "a.txt", "alpha changed\n")
				fpRun(t, dir, "git", "add", "a.txt")
			},
			change: func(t *testing.T, dir string) { fpRun(t, dir, "git", "commit", "-q", "-m", "next") },
		},
		{name: "an empty commit, so only HEAD moves", wantChanged: true, change: func(t *testing.T, dir string) {
			fpRun(t, dir, "git", "commit", "-q", "--allow-empty", "-m", "empty")
		}},
		{name: "deleting a tracked file", wantChanged: true, change: func(t *testing.T, dir string) {
			fpMust(t, os.Remove(filepath.Join(dir, "a.txt")))
		}},
		{name: "tracked file made executable", wantChanged: true, change: func(t *testing.T, dir string) {
			fpMust(t, os.Chmod(filepath.Join(dir, "a.txt"), 0o755))
		}},
		{name: "new untracked file", wantChanged: true, change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "new.txt", "")
		}},
		{name: "untracked file content", wantChanged: true, change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "u.txt", "untracked changed\n")
		}},
		{name: "untracked file renamed", wantChanged: true, change: func(t *testing.T, dir string) {
			fpMust(t, os.Rename(filepath.Join(dir, "u.txt"), filepath.Join(dir, "v.txt")))
		}},
		{name: "untracked file made executable", wantChanged: true, change: func(t *testing.T, dir string) {
			fpMust(t, os.Chmod(filepath.Join(dir, "u.txt"), 0o755))
		}},
		{name: "untracked symlink retargeted", wantChanged: true,
			setup: func(t *testing.T, dir string) { fpMust(t, os.Symlink("a.txt", filepath.Join(dir, "link"))) },
			change: func(t *testing.T, dir string) {
				fpMust(t, os.Remove(filepath.Join(dir, "link")))
				fpMust(t, os.Symlink("sub/b.txt", filepath.Join(dir, "link")))
			},
		},
		{name: "bytes moved from an untracked file's name to its content", wantChanged: true,
			setup: func(t *testing.T, dir string) { fpWrite(t, dir, "ab", "c") },
			change: func(t *testing.T, dir string) {
				fpMust(t, os.Remove(filepath.Join(dir, "ab")))
				fpWrite(t, dir, "a", "bc")
			},
		},
		{name: "config bytes", wantChanged: true, config: []byte("version: 1\njobs: 2\n"),
			change: func(t *testing.T, dir string) {}},
		{name: "write under .gauntlet", change: func(t *testing.T, dir string) {
			fpWrite(t, dir, ".gauntlet/logs/run/test.log", "log\n")
			fpWrite(t, dir, ".gauntlet/state/stop-hook.json", "{}\n")
		}},
		{name: "ignored file", change: func(t *testing.T, dir string) {
			fpWrite(t, dir, "ignored.txt", "anything\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fpBaseRepo(t)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			before := fingerprintOf(t, dir, config)
			if again := fingerprintOf(t, dir, config); again != before {
				t.Fatalf("same state gave two fingerprints: %s then %s", before, again)
			}
			tt.change(t, dir)
			afterConfig := config
			if tt.config != nil {
				afterConfig = tt.config
			}
			after := fingerprintOf(t, dir, afterConfig)
			if changed := after != before; changed != tt.wantChanged {
				t.Errorf("fingerprint changed = %v, want %v (before %s, after %s)", changed, tt.wantChanged, before, after)
			}
		})
	}
}

// A user who sets GIT_LITERAL_PATHSPECS for their own git must not make gauntlet's writes under
// .gauntlet/ look like a change: every stop would rerun the gates.
func TestFingerprintIgnoresStateDirWithLiteralPathspecs(t *testing.T) {
	t.Setenv("GIT_LITERAL_PATHSPECS", "1")
	dir := fpBaseRepo(t)
	config := []byte("version: 1\n")
	before := fingerprintOf(t, dir, config)
	fpWrite(t, dir, ".gauntlet/state/stop-hook.json", "{}\n")
	if after := fingerprintOf(t, dir, config); after != before {
		t.Errorf("a write under .gauntlet/ changed the fingerprint: %s then %s", before, after)
	}
}

func TestFingerprintIsHexSHA256(t *testing.T) {
	dir := fpBaseRepo(t)
	if fp := fingerprintOf(t, dir, nil); !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(fp) {
		t.Errorf("fingerprint = %q, want 64 lower-case hex digits", fp)
	}
}

func TestFingerprintScopedToSubdirectory(t *testing.T) {
	repo := fpBaseRepo(t)
	root := filepath.Join(repo, "sub")
	tests := []struct {
		name        string
		change      func(t *testing.T)
		wantChanged bool
	}{
		{"tracked change outside the root", func(t *testing.T) { fpWrite(t, repo, "a.txt", "elsewhere\n") }, false},
		{"untracked file outside the root", func(t *testing.T) { fpWrite(t, repo, "other.txt", "x") }, false},
		{"tracked change inside the root", func(t *testing.T) { fpWrite(t, root, "b.txt", "inside\n") }, true},
		{"untracked file inside the root", func(t *testing.T) { fpWrite(t, root, "new.txt", "x") }, true},
		{"write under the root's .gauntlet", func(t *testing.T) { fpWrite(t, root, ".gauntlet/lock", "") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fingerprintOf(t, root, nil)
			tt.change(t)
			if changed := fingerprintOf(t, root, nil) != before; changed != tt.wantChanged {
				t.Errorf("fingerprint changed = %v, want %v", changed, tt.wantChanged)
			}
		})
	}
}

func TestFingerprintWithoutCommits(t *testing.T) {
	dir := fpNewRepo(t)
	fpWrite(t, dir, "a.txt", "alpha\n")
	empty := fingerprintOf(t, dir, nil)
	if again := fingerprintOf(t, dir, nil); again != empty {
		t.Fatalf("same state gave two fingerprints: %s then %s", empty, again)
	}

	steps := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"staging the file", func(t *testing.T) { fpRun(t, dir, "git", "add", "a.txt") }},
		{"changing it after staging", func(t *testing.T) { fpWrite(t, dir, "a.txt", "alpha changed\n") }},
		{"the first commit", func(t *testing.T) { fpRun(t, dir, "git", "commit", "-q", "-am", "first") }},
	}
	seen := map[string]string{empty: "the start"}
	for _, step := range steps {
		step.change(t)
		fp := fingerprintOf(t, dir, nil)
		if earlier, ok := seen[fp]; ok {
			t.Errorf("after %s the fingerprint equals the one after %s", step.name, earlier)
		}
		seen[fp] = step.name
	}
}

func TestFingerprintOutsideGit(t *testing.T) {
	fpIsolateGit(t)
	dir := fpTempDir(t)
	fp, err := Fingerprint(context.Background(), dir, nil)
	if !errors.Is(err, ErrNotGit) || fp != "" {
		t.Errorf("Fingerprint = %q, %v; want \"\", ErrNotGit", fp, err)
	}
}

func TestFingerprintInsideGitDir(t *testing.T) {
	dir := fpBaseRepo(t)
	_, err := Fingerprint(context.Background(), filepath.Join(dir, ".git"), nil)
	if !errors.Is(err, ErrNotGit) {
		t.Errorf("err = %v, want ErrNotGit: .git has no working tree to judge", err)
	}
}

func TestFingerprintWithoutGitInstalled(t *testing.T) {
	dir := fpBaseRepo(t)
	t.Setenv("PATH", "")
	_, err := Fingerprint(context.Background(), dir, nil)
	if !errors.Is(err, ErrNotGit) || !strings.Contains(err.Error(), "git is not installed") {
		t.Errorf("err = %v, want ErrNotGit saying git is not installed", err)
	}
}

func TestFingerprintMissingRootIsAnError(t *testing.T) {
	dir := fpBaseRepo(t)
	fp, err := Fingerprint(context.Background(), filepath.Join(dir, "no-such-dir"), nil)
	if err == nil || errors.Is(err, ErrNotGit) || fp != "" {
		t.Errorf("Fingerprint = %q, %v; want a plain error", fp, err)
	}
}

func TestFingerprintCancelledContext(t *testing.T) {
	dir := fpBaseRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fp, err := Fingerprint(ctx, dir, nil)
	if err == nil || fp != "" {
		t.Errorf("Fingerprint = %q, %v; want an error and no fingerprint", fp, err)
	}
}

// A FIFO among the untracked files must not block the fingerprint: opening it for reading would
// wait for a writer forever.
func TestFingerprintUntrackedFIFO(t *testing.T) {
	dir := fpBaseRepo(t)
	if err := testos.Mkfifo(filepath.Join(dir, "pipe")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Fingerprint(context.Background(), dir, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Fingerprint: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Fingerprint hung on an untracked FIFO")
	}
}

// A file that cannot be read still yields a fingerprint, and one that differs from the readable
// file's: its error, not empty content, stands in for it.
func TestFingerprintUnreadableUntrackedFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their permissions")
	}
	dir := fpBaseRepo(t)
	readable := fingerprintOf(t, dir, nil)
	fpMust(t, os.Chmod(filepath.Join(dir, "u.txt"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "u.txt"), 0o644) })
	if fingerprintOf(t, dir, nil) == readable {
		t.Error("an unreadable file fingerprints like its readable self")
	}
}

// BenchmarkFingerprint5000 measures the fast path of the stop hook on a repository of 5,000
// committed files with a few modified and untracked ones.
func BenchmarkFingerprint5000(b *testing.B) {
	dir := fpNewRepo(b)
	for i := range 5000 {
		fpWrite(b, dir, fmt.Sprintf("d%02d/e%02d/f%04d.txt", i%50, i/50%10, i), fmt.Sprintf("file %d\n", i))
	}
	fpRun(b, dir, "git", "add", "-A")
	fpRun(b, dir, "git", "commit", "-q", "-m", "base")
	for i := range 5 {
		fpWrite(b, dir, fmt.Sprintf("d%02d/e%02d/f%04d.txt", i%50, i/50%10, i), "modified\n")
		fpWrite(b, dir, fmt.Sprintf("new/u%d.txt", i), "untracked\n")
	}
	config := []byte("version: 1\ngates:\n  t:\n    run: \"true\"\n")
	ctx := context.Background()
	for b.Loop() {
		if _, err := Fingerprint(ctx, dir, config); err != nil {
			b.Fatal(err)
		}
	}
}
