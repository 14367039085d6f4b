package snapshot

import (
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/state"
)

func TestParsePorcelainV2(t *testing.T) {
	out := strings.Join([]string{
		"# branch.oid 1a00ef3de62471f0543a26b0cb711d52b063f3d9",
		"# branch.head main",
		"1 .M N... 100644 100644 100644 6178079 6178079 sub/b.txt",
		"1 M. N... 100644 100644 100644 aaaaaaa bbbbbbb sub/staged.txt",
		"2 R. N... 100644 100644 100644 ccccccc ccccccc R100 sub/new name.txt", "sub/old.txt",
		"u UU N... 100644 100644 100644 100644 d1 d2 d3 sub/conflict.txt",
		"? sub/untracked file.txt",
		"? other/outside.txt",
		"! sub/ignored.txt",
	}, "\x00") + "\x00"
	s, err := parse([]byte(out), "sub/")
	if err != nil {
		t.Fatal(err)
	}
	if s.Head != "1a00ef3de62471f0543a26b0cb711d52b063f3d9" {
		t.Errorf("Head = %q", s.Head)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.Path)
	}
	want := []string{"b.txt", "conflict.txt", "new name.txt", "staged.txt", "untracked file.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("paths = %q, want %q (root-relative, outside the root and ignored ones left out)", got, want)
	}
	worktree := map[string]bool{"b.txt": true, "conflict.txt": true, "new name.txt": false, "staged.txt": false, "untracked file.txt": true}
	for _, e := range s.Entries {
		if e.Worktree != worktree[e.Path] {
			t.Errorf("%s: Worktree = %v, want %v", e.Path, e.Worktree, worktree[e.Path])
		}
	}
	if e, ok := s.Lookup("new name.txt"); !ok || !strings.Contains(e.Meta, "sub/old.txt") {
		t.Errorf("a rename's original path must pin it: %+v", e)
	}
}

func TestParseWithoutCommits(t *testing.T) {
	s, err := parse([]byte("# branch.oid (initial)\x00# branch.head main\x00? a\x00"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Head != NoCommit || len(s.Entries) != 1 || !s.Entries[0].Untracked {
		t.Errorf("got Head %q, entries %+v", s.Head, s.Entries)
	}
}

func TestParseRejectsWhatItDoesNotKnow(t *testing.T) {
	if _, err := parse([]byte("1 .M short\x00"), ""); err == nil {
		t.Error("a truncated line parsed")
	}
	if _, err := parse([]byte("X what\x00"), ""); err == nil {
		t.Error("an unknown line parsed")
	}
}

func TestStateDirNameMatchesTheStateDirectory(t *testing.T) {
	if StateDirName != state.Name {
		t.Fatalf("snapshot excludes %q, but the state directory is %q", StateDirName, state.Name)
	}
}
