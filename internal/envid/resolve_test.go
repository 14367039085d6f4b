package envid

import (
	"os"
	"path/filepath"
	"testing"
)

// The walker must resolve every path as filepath.EvalSymlinks does, and fail where it fails.
func TestLinkWalkerResolvesAsEvalSymlinks(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"real/bin", "real/sub/deep", "other"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "real/file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"abs":       filepath.Join(dir, "real"),
		"rel":       "real/sub",
		"chain":     "rel",
		"up":        "real/sub/../bin",
		"loop1":     "loop2",
		"loop2":     "loop1",
		"dangling":  "nowhere",
		"real/back": "../other",
		"tofile":    "real/file",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	t.Chdir(dir)
	paths := []string{
		"", ".", "/", "//", "real", "real/bin/", "abs/bin", "rel/deep", "chain/deep/../deep", "up",
		"real/back", "real/back/..", "loop1", "dangling", "tofile", "tofile/x", "real/file/x", "missing/bin",
		"..", "../..", "real/../../x", "./real//bin/.", "abs/../real",
	}
	for _, p := range paths {
		for _, path := range []string{p, filepath.Join(dir, p)} {
			want, wantErr := filepath.EvalSymlinks(path)
			got, err := newLinkWalker().eval(path)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Errorf("eval(%q) = %q, %v; EvalSymlinks gives %q, %v", path, got, err, want, wantErr)
			}
		}
	}
	// One walker for many paths answers each as a fresh one would.
	w := newLinkWalker()
	for _, p := range paths {
		want, wantErr := filepath.EvalSymlinks(p)
		if got, err := w.eval(p); got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("shared walker: eval(%q) = %q, %v; want %q, %v", p, got, err, want, wantErr)
		}
	}
}
