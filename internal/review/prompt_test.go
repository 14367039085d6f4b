package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func TestBuildPrompt(t *testing.T) {
	patch := &snapshot.Patch{
		Text:    []byte("diff --git a/x b/x\n+added\n"),
		Cut:     true,
		LeftOut: []string{".env", "deploy.key"},
		Against: "main (merge-base abc)",
	}
	prompt := string(buildPrompt("Check the SQL.", patch, 4096))
	for _, want := range []string{
		"Check the SQL.\n\n## How to answer",
		"The diff was cut at 4096 bytes (max_diff_bytes)",
		"2 changed files that may hold secrets were left out on purpose: .env, deploy.key.",
		"## The change (diff against main (merge-base abc))",
		"----- BEGIN DIFF -----\ndiff --git a/x b/x\n+added\n----- END DIFF -----\n",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}

	plain := string(buildPrompt(DefaultPrompt, &snapshot.Patch{Text: []byte("+x\n"), Against: "HEAD"}, 4096))
	if strings.Contains(plain, "## Notes") {
		t.Errorf("a whole diff with nothing left out has notes:\n%s", plain)
	}
}

func TestLoadInstructions(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".gauntlet"), 0o755)
	os.WriteFile(filepath.Join(root, ".gauntlet", "review.md"), []byte("Look at locking.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "empty.md"), []byte(" \n"), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("outside"), 0o644)
	os.Symlink(outside, filepath.Join(root, "link.md"))

	tests := []struct {
		prompt, file string
		want         string // the instructions, or a part of the error
		wantErr      bool
	}{
		{"Inline.", "", "Inline.", false},
		{"", "", DefaultPrompt, false},
		{"", ".gauntlet/review.md", "Look at locking.\n", false},
		{"", "missing.md", "prompt_file", true},
		{"", "empty.md", "is empty", true},
		{"", "../secret.md", "prompt_file", true},
		{"", "link.md", "prompt_file", true},
	}
	for _, tt := range tests {
		got, err := loadInstructions(context.Background(), root, tt.prompt, tt.file)
		switch {
		case tt.wantErr && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("(%q, %q): err %v, want one containing %q", tt.prompt, tt.file, err, tt.want)
		case !tt.wantErr && (err != nil || got != tt.want):
			t.Errorf("(%q, %q) = %q, %v; want %q", tt.prompt, tt.file, got, err, tt.want)
		}
	}
}

// Every glob the reviewers' deny rules get names files LooksSecret keeps out of the diff, so that
// the two never disagree about what a secret file is.
func TestSecretGlobsAgreeWithLooksSecret(t *testing.T) {
	for _, g := range secretGlobs() {
		sample := strings.NewReplacer("**/", "deep/dir/", "/**", "/x", "*", "abc").Replace(g)
		if !LooksSecret(sample) {
			t.Errorf("glob %s: sample %s is not LooksSecret", g, sample)
		}
	}
}
