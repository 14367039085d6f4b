package stophook

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/seal"
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

// A memo is believed for the index it names when its seal verifies, whether it lists entries or
// none; edited, or made for another index, it is not.
func TestReadIndexMemo(t *testing.T) {
	key, err := seal.Load()
	fpMust(t, err)
	project := t.TempDir()
	memo := func(m indexMemo) []byte {
		t.Helper()
		fpMust(t, key.SealJSON(sealIndexMemo, project, &m))
		data, err := json.Marshal(m)
		fpMust(t, err)
		return data
	}
	id := "/repo/.git/index\x00\x00401779\x001795716826910131289<&>"
	entries := []snapshot.IndexEntry{{Path: "a.txt", Mode: "100644", OID: "0123", Hidden: true}, {Path: "l", Mode: "120000", OID: "4567"}}
	none, some := memo(indexMemo{Index: id}), memo(indexMemo{Index: id, Entries: entries})
	cases := []struct {
		name  string
		id    string
		data  []byte
		want  []snapshot.IndexEntry
		trust bool
	}{
		{"no entries", id, none, nil, true},
		{"entries", id, some, entries, true},
		{"another index", id + "x", none, nil, false},
		{"another index, entries", id + "x", some, nil, false},
		{"an entry added", id, bytes.Replace(none, []byte(`}`), []byte(`,"entries":[{"Path":"x","Mode":"100644","OID":"1","Hidden":true}]}`), 1), nil, false},
		{"an entry unhidden", id, bytes.Replace(some, []byte(`"Hidden":true`), []byte(`"Hidden":false`), 1), nil, false},
		{"the seal changed", id, bytes.Replace(none, []byte(`"mac":"`), []byte(`"mac":"0`), 1), nil, false},
		{"no seal", id, []byte(`{"index":"` + id + `"}`), nil, false},
		{"not JSON", id, []byte("garbage"), nil, false},
	}
	for _, tc := range cases {
		got, ok := readIndexMemo(key, project, tc.id, tc.data)
		if ok != tc.trust || (ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s: readIndexMemo = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.trust)
		}
	}
	if _, ok := readIndexMemo(key, project+"/other", id, none); ok {
		t.Error("a memo sealed for another project was believed")
	}
}
