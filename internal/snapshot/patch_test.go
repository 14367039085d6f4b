package snapshot

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func diffOf(t *testing.T, dir string, opts diffOptions) *Patch {
	t.Helper()
	p, err := diffPatch(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("Diff: %v", err)
	}
	return p
}

func looksSecret(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, ".env") || strings.HasSuffix(base, ".key")
}

func TestDiffShowsEveryKindOfChangeAgainstTheMergeBase(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "edited.txt", "one\ntwo\n")
	commitAll(t, dir, "init")
	run(t, dir, "git", "switch", "-q", "-c", "feature")
	write(t, dir, "committed.txt", "committed line\n")
	commitAll(t, dir, "feature work")
	run(t, dir, "git", "switch", "-q", "main")
	write(t, dir, "main-only.txt", "not part of the feature\n")
	commitAll(t, dir, "main moves on")
	run(t, dir, "git", "switch", "-q", "feature")

	write(t, dir, "staged.txt", "staged line\n")
	run(t, dir, "git", "add", "staged.txt")
	write(t, dir, "edited.txt", "one\ntwo changed\n")
	write(t, dir, "new dir/untracked file.txt", "untracked line")
	write(t, dir, ".gauntlet/logs/run/x.log", "state never shown\n")

	p := diffOf(t, dir, diffOptions{Base: "main"})
	text := string(p.Text)
	for _, want := range []string{
		"+committed line", "+staged line", "-two\n+two changed", "+untracked line\n\\ No newline at end of file",
		"diff --git a/new dir/untracked file.txt b/new dir/untracked file.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new dir/untracked file.txt\n@@ -0,0 +1 @@",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("patch lacks %q:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"not part of the feature", "state never shown"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("patch shows %q:\n%s", unwanted, text)
		}
	}
	if p.Cut || len(p.LeftOut) > 0 || !strings.HasPrefix(p.Against, "main (merge-base ") {
		t.Errorf("Cut=%v LeftOut=%q Against=%q", p.Cut, p.LeftOut, p.Against)
	}

	added := ParseAdded(p.Text)
	for _, at := range []struct {
		file string
		line int
	}{{"committed.txt", 1}, {"staged.txt", 1}, {"edited.txt", 2}, {"new dir/untracked file.txt", 1}} {
		if !added.Has(at.file, at.line) {
			t.Errorf("%s:%d is not an added line; added = %v", at.file, at.line, added)
		}
	}
	if added.Has("edited.txt", 1) {
		t.Error("edited.txt:1 is unchanged but counted as added")
	}
}

func TestDiffNeverShowsSkippedFiles(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "app.go", "package app\n")
	write(t, dir, "config/.env", "OLD=1\n")
	commitAll(t, dir, "init")
	write(t, dir, "config/.env", "API_TOKEN=tracked-secret\n")
	write(t, dir, "deploy.key", "untracked-secret\n")
	write(t, dir, "app.go", "package app\n\nvar x = 1\n")

	p := diffOf(t, dir, diffOptions{Base: "main", Skip: looksSecret})
	text := string(p.Text)
	for _, secret := range []string{"tracked-secret", "untracked-secret", "OLD=1", ".env", "deploy.key"} {
		if strings.Contains(text, secret) {
			t.Errorf("patch shows %q:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "+var x = 1") {
		t.Errorf("patch lacks the app.go change:\n%s", text)
	}
	if got := strings.Join(p.LeftOut, ","); got != "config/.env,deploy.key" {
		t.Errorf("LeftOut = %q", got)
	}
}

func TestDiffIsCutAtALineBoundary(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "seed.txt", "seed\n")
	commitAll(t, dir, "init")
	var big strings.Builder
	for i := range 2000 {
		big.WriteString(strings.Repeat("x", i%50) + "\n")
	}
	write(t, dir, "a.txt", big.String())
	run(t, dir, "git", "add", "a.txt")
	write(t, dir, "z-untracked.txt", "never reached\n")

	const limit = 1000
	p := diffOf(t, dir, diffOptions{Base: "main", MaxBytes: limit})
	if !p.Cut {
		t.Fatal("Cut = false for a change far over the limit")
	}
	if len(p.Text) > limit || len(p.Text) < limit-60 {
		t.Errorf("patch is %d bytes, want close to but at most %d", len(p.Text), limit)
	}
	if !strings.HasSuffix(string(p.Text), "\n") {
		t.Errorf("patch ends mid-line: %q", p.Text[len(p.Text)-20:])
	}
	if strings.Contains(string(p.Text), "never reached") {
		t.Error("an untracked file was added after the cut")
	}
	write(t, dir, "z.key", "secret\n")
	if p = diffOf(t, dir, diffOptions{Base: "main", MaxBytes: limit, Skip: looksSecret}); len(p.LeftOut) != 1 {
		t.Errorf("LeftOut = %q after the cut, want the untracked secret named", p.LeftOut)
	}
	os.Remove(filepath.Join(dir, "z.key"))

	// An untracked file that does not fit is not read in part either.
	run(t, dir, "git", "rm", "-q", "--cached", "a.txt")
	os.Remove(filepath.Join(dir, "a.txt"))
	write(t, dir, "z-untracked.txt", big.String())
	p = diffOf(t, dir, diffOptions{Base: "main", MaxBytes: limit})
	if !p.Cut || len(p.Text) != 0 {
		t.Errorf("Cut=%v, %d bytes; want a cut with nothing shown", p.Cut, len(p.Text))
	}
}

func TestDiffWithoutBaseOrCommits(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "first.txt", "first\n")
	p := diffOf(t, dir, diffOptions{})
	if !strings.Contains(string(p.Text), "+first") || !strings.Contains(p.Against, "no commits yet") {
		t.Errorf("Against=%q patch:\n%s", p.Against, p.Text)
	}

	run(t, dir, "git", "switch", "-q", "-c", "work")
	commitAll(t, dir, "init")
	write(t, dir, "first.txt", "first\nsecond\n")
	p = diffOf(t, dir, diffOptions{})
	if !strings.Contains(string(p.Text), "+second") || p.Against != "HEAD (no base ref found)" {
		t.Errorf("Against=%q patch:\n%s", p.Against, p.Text)
	}
}

func TestDiffErrors(t *testing.T) {
	isolateGit(t)
	if _, err := diffPatch(context.Background(), tempDir(t), diffOptions{}); !errors.Is(err, ErrNotGit) {
		t.Errorf("outside git: err = %v, want ErrNotGit", err)
	}
	dir := newRepo(t)
	write(t, dir, "a.txt", "a\n")
	commitAll(t, dir, "init")
	if _, err := diffPatch(context.Background(), dir, diffOptions{Base: "no-such-branch"}); !errors.Is(err, ErrBaseNotFound) {
		t.Errorf("unknown base: err = %v, want ErrBaseNotFound", err)
	}
}

type diffOptions struct {
	Base     string
	MaxBytes int64
	Skip     func(string) bool
}

func diffPatch(ctx context.Context, dir string, o diffOptions) (*Patch, error) {
	return New(dir, Options{Base: o.Base}).Patch(ctx, PatchOptions{MaxBytes: o.MaxBytes, Skip: o.Skip})
}
