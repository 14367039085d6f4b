package snapshot

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// indexOf reads the index both ways: from the file, and from git ls-files.
func indexOf(t *testing.T, root string) (fromFile []IndexEntry, ok bool, fromGit []IndexEntry) {
	t.Helper()
	tree, err := New(root, Options{}).Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fromFile, ok = tree.readIndexFile(nil)
	args := append([]string{"ls-files", "-s", "-v", "-z"}, pathspec...)
	out, err := git.Output(context.Background(), root, maxIndexOutput, args...)
	if err != nil {
		t.Fatal(err)
	}
	return fromFile, ok, parseLsFiles(out)
}

func sameIndex(t *testing.T, root string) {
	t.Helper()
	fromFile, ok, fromGit := indexOf(t, root)
	if !ok {
		t.Fatalf("the index file of %s was not read", root)
	}
	if !slices.Equal(fromFile, fromGit) {
		t.Errorf("index file: %+v\ngit ls-files: %+v", fromFile, fromGit)
	}
	if len(fromGit) == 0 {
		t.Error("an empty index proves nothing")
	}
}

func indexRepo(t *testing.T, initArgs ...string) string {
	t.Helper()
	isolateGit(t)
	dir := tempDir(t)
	run(t, dir, append([]string{"git", "init", "-q", "-b", "main"}, initArgs...)...)
	write(t, dir, "a.txt", "a\n")
	write(t, dir, "dir/b.txt", "b\n")
	write(t, dir, "dir/sub/c with space.txt", "c\n")
	write(t, dir, "exec.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(dir, "exec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, ".gauntlet/committed.json", "{}")
	write(t, dir, "a-very-long-directory-name/with/a-long-file-name-to-compress.txt", "x\n")
	write(t, dir, "a-very-long-directory-name/with/a-long-file-name-to-compress2.txt", "y\n")
	commitAll(t, dir, "init")
	return dir
}

func TestIndexFileReadsAsGitListsIt(t *testing.T) {
	for _, tt := range []struct {
		name  string
		init  []string
		setup func(t *testing.T, dir string)
	}{
		{name: "version 2", setup: func(t *testing.T, dir string) { run(t, dir, "git", "update-index", "--index-version", "2") }},
		{name: "version 3 with skip-worktree and intent-to-add", setup: func(t *testing.T, dir string) {
			run(t, dir, "git", "update-index", "--skip-worktree", "dir/b.txt")
			write(t, dir, "ita.txt", "i\n")
			run(t, dir, "git", "add", "-N", "ita.txt")
		}},
		{name: "version 4", setup: func(t *testing.T, dir string) { run(t, dir, "git", "update-index", "--index-version", "4") }},
		{name: "assume-unchanged", setup: func(t *testing.T, dir string) { run(t, dir, "git", "update-index", "--assume-unchanged", "a.txt") }},
		{name: "sha256", init: []string{"--object-format=sha256"}},
		{name: "staged and unmerged", setup: func(t *testing.T, dir string) {
			run(t, dir, "git", "switch", "-q", "-c", "other")
			write(t, dir, "a.txt", "other\n")
			commitAll(t, dir, "other")
			run(t, dir, "git", "switch", "-q", "main")
			write(t, dir, "a.txt", "main\n")
			commitAll(t, dir, "main")
			cmd := []string{"git", "merge", "-q", "other"}
			_ = runMayFail(dir, cmd...)
			write(t, dir, "staged.txt", "s\n")
			run(t, dir, "git", "add", "staged.txt")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := indexRepo(t, tt.init...)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			sameIndex(t, dir)
			fromFile, _, _ := indexOf(t, dir)
			for _, e := range fromFile {
				if inStateDir(e.Path) {
					t.Errorf("the state directory is listed: %s", e.Path)
				}
			}
		})
	}
}

func TestIndexFileOfASubdirectoryAndAWorktree(t *testing.T) {
	dir := indexRepo(t)
	sameIndex(t, filepath.Join(dir, "dir"))

	wt := filepath.Join(tempDir(t), "wt")
	run(t, dir, "git", "worktree", "add", "-q", "-b", "wt", wt)
	sameIndex(t, wt)
	sameIndex(t, filepath.Join(wt, "dir"))
}

func TestIndexFormsLeftToGit(t *testing.T) {
	dir := indexRepo(t)
	run(t, dir, "git", "update-index", "--split-index")
	if _, ok, _ := indexOf(t, dir); ok {
		t.Error("a split index was read from the file")
	}
	tree, err := New(dir, Options{}).Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	index, err := tree.Index(context.Background())
	if err != nil || len(index) == 0 {
		t.Errorf("Index through git: %d entries, %v", len(index), err)
	}
}

// Special reads the index file keeping only what the fingerprint needs: the same entries as the
// whole index, filtered.
func TestSpecialIsTheIndexFiltered(t *testing.T) {
	dir := indexRepo(t)
	run(t, dir, "git", "update-index", "--skip-worktree", "dir/b.txt")
	special := func(tree *Tree) []IndexEntry {
		got, err := tree.Special(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tree, err := New(dir, Options{}).Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fromFile := special(tree)
	all, err := tree.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want []IndexEntry
	for _, e := range all {
		if e.Hidden || e.Mode == "120000" {
			want = append(want, e)
		}
	}
	if len(want) < 2 || !slices.Equal(fromFile, want) {
		t.Fatalf("Special = %+v\nwant %+v", fromFile, want)
	}
	// After the whole index was read, Special filters it.
	again, _ := New(dir, Options{}).Tree(context.Background())
	again.Index(context.Background())
	if got := special(again); !slices.Equal(got, want) {
		t.Fatalf("Special after Index = %+v\nwant %+v", got, want)
	}
}

func runMayFail(dir string, argv ...string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	return cmd.Run()
}

// The index file is read by hand: no input may make the reader panic or loop.
func FuzzParseIndexFile(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"+string(make([]byte, 62))+"a\x00\x00\x00\x00\x00\x00\x00"+string(make([]byte, 20))), 20, "")
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x02"+string(make([]byte, 62))+"\x00ab\x00"+string(make([]byte, 62))+"\x01c\x00link\x00\x00\x00\x00"+string(make([]byte, 20))), 20, "")
	f.Fuzz(func(t *testing.T, data []byte, oidLen int, prefix string) {
		if oidLen != 20 && oidLen != 32 {
			oidLen = 20
		}
		parseIndexFile(data, oidLen, prefix, nil)
		parseIndexFile(data, oidLen, prefix, func(uint32, bool) bool { return true })
	})
}

// A sparse checkout leaves skip-worktree files out of the work tree; an assume-unchanged file is
// meant to be there. Both readers of the index tell them apart.
func TestIndexTellsAssumeUnchangedFromSkipWorktree(t *testing.T) {
	dir := indexRepo(t)
	run(t, dir, "git", "update-index", "--assume-unchanged", "a.txt")
	run(t, dir, "git", "update-index", "--skip-worktree", "dir/b.txt")
	fromFile, ok, fromGit := indexOf(t, dir)
	if !ok {
		t.Fatal("the index file was not read")
	}
	for name, entries := range map[string][]IndexEntry{"index file": fromFile, "git ls-files": fromGit} {
		got := map[string][2]bool{}
		for _, e := range entries {
			got[e.Path] = [2]bool{e.Hidden, e.AssumeUnchanged}
		}
		if got["a.txt"] != [2]bool{true, true} || got["dir/b.txt"] != [2]bool{true, false} {
			t.Errorf("%s: a.txt (hidden, assume-unchanged) = %v, dir/b.txt = %v; want [true true], [true false]", name, got["a.txt"], got["dir/b.txt"])
		}
	}
}
