package git

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

func newRepo(t *testing.T) string {
	t.Helper()
	requireGit(t)
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

func TestRunErrorCarriesStderrAndExitCode(t *testing.T) {
	dir := newRepo(t)
	tests := []struct {
		name       string
		args       []string
		wantStderr string
		wantCode   int
	}{
		{"loud failure", []string{"rev-parse", "--verify", "no-such-ref"}, "Needed a single revision", 128},
		{"quiet failure", []string{"rev-parse", "--verify", "--quiet", "no-such-ref"}, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Run(context.Background(), dir, io.Discard, tt.args...)
			var gitErr *Error
			if !errors.As(err, &gitErr) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if !strings.HasPrefix(err.Error(), "git "+strings.Join(tt.args, " ")+": ") ||
				!strings.Contains(gitErr.Stderr, tt.wantStderr) || (tt.wantStderr == "" && gitErr.Stderr != "") ||
				gitErr.ExitCode != tt.wantCode {
				t.Errorf("err = %v (stderr %q, exit %d), want the command, stderr %q, exit %d",
					err, gitErr.Stderr, gitErr.ExitCode, tt.wantStderr, tt.wantCode)
			}
		})
	}
}

// A caller that gives up is not git running out of time: the error says which it was.
func TestRunNamesWhatEndedGit(t *testing.T) {
	requireGit(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Run(ctx, t.TempDir(), io.Discard, "version")
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "longer than") {
		t.Errorf("err = %v, want context.Canceled without blaming the time limit", err)
	}

	ctx, cancel = context.WithTimeoutCause(context.Background(), 0, errTimeout) // as if the limit ran out
	defer cancel()
	err = Run(ctx, t.TempDir(), io.Discard, "version")
	if !errors.Is(err, errTimeout) || !strings.Contains(err.Error(), "git took longer than 30s") {
		t.Errorf("err = %v, want the time limit named", err)
	}
}

// Pathspec magic must work even when the user's environment turns it off for their own git.
func TestPathspecMagicSurvivesTheEnvironment(t *testing.T) {
	requireGit(t)
	t.Setenv("GIT_LITERAL_PATHSPECS", "1")
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}} {
		if err := Run(context.Background(), dir, io.Discard, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"kept.txt", "skipped.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Output(context.Background(), dir, 1<<10, "ls-files", "--others", "--", ".", ":(exclude)skipped.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "kept.txt" {
		t.Errorf("ls-files with an exclude pathspec = %q, want only kept.txt", got)
	}
}

func TestGitNotInstalled(t *testing.T) {
	t.Setenv("PATH", "")
	_, err := Output(context.Background(), t.TempDir(), 1<<10, "version")
	var gitErr *Error
	if !errors.Is(err, exec.ErrNotFound) || !errors.As(err, &gitErr) || gitErr.ExitCode != -1 {
		t.Errorf("err = %v, want exec.ErrNotFound in an *Error with exit code -1", err)
	}
}

func TestOutput(t *testing.T) {
	requireGit(t)
	out, err := Output(context.Background(), t.TempDir(), 1<<10, "version")
	if err != nil || !strings.HasPrefix(string(out), "git version ") {
		t.Errorf("Output = %q, %v; want git's version", out, err)
	}

	out, err = Output(context.Background(), t.TempDir(), 5, "version")
	if out != nil || !errors.Is(err, ErrOutputTooLarge) || !strings.Contains(err.Error(), "(limit 5 bytes)") {
		t.Errorf("over the limit: Output = %q, %v; want ErrOutputTooLarge naming the limit", out, err)
	}
}

func TestStream(t *testing.T) {
	dir := newRepo(t)
	errStop := errors.New("stop")
	tests := []struct {
		name    string
		args    []string
		consume func(io.Reader) error
		wantErr func(error) bool
	}{
		{"reads everything", []string{"version"}, func(r io.Reader) error {
			b, err := io.ReadAll(r)
			if err == nil && !strings.HasPrefix(string(b), "git version ") {
				err = errors.New("unexpected output " + string(b))
			}
			return err
		}, func(err error) bool { return err == nil }},
		{"enough is no error", []string{"version"}, func(io.Reader) error { return ErrEnough },
			func(err error) bool { return err == nil }},
		{"consumer's error comes back", []string{"version"}, func(io.Reader) error { return errStop },
			func(err error) bool { return err == errStop }},
		{"git's failure comes back", []string{"rev-parse", "--verify", "no-such-ref"}, func(io.Reader) error { return nil },
			func(err error) bool {
				var gitErr *Error
				return errors.As(err, &gitErr) && strings.Contains(gitErr.Stderr, "Needed a single revision")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Stream(context.Background(), dir, tt.args, tt.consume); !tt.wantErr(err) {
				t.Errorf("Stream = %v", err)
			}
		})
	}
}
