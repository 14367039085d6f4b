package snapshot

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// repo makes a git repository with files (path -> content) committed, and returns its root.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	root := t.TempDir()
	for name, content := range files {
		write(t, root, name, content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "i"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

func TestIgnoredMatchesOnlyWhatThePatternsName(t *testing.T) {
	root := repo(t, map[string]string{".gitignore": "*.log\nbuild/\n.gauntlet/\n", "src/z.go": "package z\n"})
	write(t, root, "a.log", "x")
	write(t, root, "build/x.go", "x")
	write(t, root, "build/y.txt", "y")
	write(t, root, ".gauntlet/cache/x.go", "state")
	s, err := readTree(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{nil, nil},
		{[]string{"**/*.go"}, []string{"build/x.go"}},
		{[]string{"{build,src}/**"}, []string{"build/x.go", "build/y.txt"}},
		{[]string{"*.log", "build/*.txt"}, []string{"a.log", "build/y.txt"}},
	} {
		got, err := s.Ignored(context.Background(), tc.patterns)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Ignored(%q) = %q, want %q", tc.patterns, got, tc.want)
		}
	}
}

func TestBehindFollowsLinksByContent(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "x.txt", "one")
	write(t, outside, "sub/y.txt", "y")
	if err := os.Symlink("..", filepath.Join(outside, "sub/up")); err != nil { // a loop
		t.Fatal(err)
	}
	root := repo(t, map[string]string{"a.txt": "a"})
	if err := os.Symlink(outside, filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	behind := func() []Followed {
		t.Helper()
		s, err := readTree(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.Behind(context.Background(), "a.txt"); err != nil || got != nil {
			t.Fatalf("a plain file leads somewhere: %v %v", got, err)
		}
		got, err := s.Behind(context.Background(), "lib")
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := behind()
	var paths []string
	for _, f := range first {
		paths = append(paths, f.Path)
	}
	if want := []string{"lib/sub/y.txt", "lib/x.txt"}; !slices.Equal(paths, want) {
		t.Fatalf("followed %q, want %q", paths, want)
	}
	write(t, outside, "x.txt", "two")
	if slices.EqualFunc(first, behind(), func(a, b Followed) bool { return string(a.Digest) == string(b.Digest) }) {
		t.Fatal("a file behind the link changed, its digest did not")
	}

	maxFollowed = 1
	defer func() { maxFollowed = 20000 }()
	s, err := readTree(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Behind(context.Background(), "lib"); !errors.Is(err, ErrTooManyFollowed) {
		t.Fatalf("a link to more files than are read: %v", err)
	}
}

// A submodule's second uncommitted edit changes its digest: its HEAD and its status line do not.
func TestNestedRepositoryEditsCount(t *testing.T) {
	root := repo(t, map[string]string{"a.txt": "a"})
	nested := repo(t, map[string]string{"x.txt": "committed"})
	if err := os.Rename(nested, filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	digest := func() []byte {
		sum := sha256.New()
		if err := fileDigest(context.Background(), sum, filepath.Join(root, "lib")); err != nil {
			t.Fatal(err)
		}
		return sum.Sum(nil)
	}
	write(t, root, "lib/x.txt", "first edit")
	first := digest()
	write(t, root, "lib/x.txt", "second edit")
	if string(first) == string(digest()) {
		t.Fatal("a second edit inside a nested repository leaves its digest alone")
	}
}
