package stophook

import (
	"context"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// The index's special entries are remembered per version of the index file: a memo made for it
// answers, one edited by hand (here saying that nothing is hidden) is not believed, and the
// file's hidden edit still counts.
func TestIndexMemoIsSealed(t *testing.T) {
	dir := fpNewRepo(t)
	fpWrite(t, dir, "a.txt", "good")
	fpWrite(t, dir, ".gitignore", ".gauntlet/\n")
	fpRun(t, dir, "git", "add", "-A")
	fpRun(t, dir, "git", "commit", "-q", "-m", "one")
	fpRun(t, dir, "git", "update-index", "--skip-worktree", "a.txt")
	fpWrite(t, dir, "a.txt", "bad")
	sd, err := state.Open(dir)
	fpMust(t, err)
	defer sd.Close()
	special := func() []snapshot.IndexEntry {
		t.Helper()
		tree, err := snapshot.New(dir, snapshot.Options{}).Tree(context.Background())
		fpMust(t, err)
		rememberSpecial(context.Background(), sd, tree)
		got, err := tree.Special(context.Background())
		fpMust(t, err)
		return got
	}
	if got := special(); len(got) != 1 || got[0].Path != "a.txt" || !got[0].Hidden {
		t.Fatalf("special entries: %+v", got)
	}
	data, err := sd.ReadFile(indexMemoFile)
	fpMust(t, err)
	if got := special(); len(got) != 1 {
		t.Fatalf("from the memo: %+v", got)
	}
	forged := strings.Replace(string(data), `"Hidden":true`, `"Hidden":false`, 1)
	if forged == string(data) {
		t.Fatalf("unexpected memo %s", data)
	}
	fpMust(t, sd.WriteFileAtomic(indexMemoFile, []byte(forged)))
	if got := special(); len(got) != 1 || !got[0].Hidden {
		t.Fatalf("a forged memo was believed: %+v", got)
	}
}
