package baseline

import (
	"os"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// TestMain keeps the key that seals stored findings (internal/seal) out of the real user's state
// directory.
func TestMain(m *testing.M) { os.Exit(testos.RunWithUserState(m)) }

// Stored base findings decide what new_only lets through: a finding written into the file, or
// another key's file copied over, must not be believed.
func TestStoredFindingsAreSealed(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	set := NewSet("run", true)
	set.AddKey(Key{1})
	if err := SaveCached(sd, "aaa", set); err != nil {
		t.Fatal(err)
	}
	if got, ok := LoadCached(sd, "aaa"); !ok || len(got.Keys()) != 1 {
		t.Fatalf("a stored set did not load back: %v, %v", got, ok)
	}
	path := sd.Path() + "/" + cacheDir + "/aaa.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), `"keys":[`, `"keys":["02000000000000000000000000000000",`, 1)
	if forged == string(data) {
		t.Fatalf("no keys list to forge in %s", data)
	}
	os.WriteFile(path, []byte(forged), 0o644)
	if _, ok := LoadCached(sd, "aaa"); ok {
		t.Fatal("findings added to the stored file were believed")
	}
	os.WriteFile(sd.Path()+"/"+cacheDir+"/bbb.json", data, 0o644)
	if _, ok := LoadCached(sd, "bbb"); ok {
		t.Fatal("another key's findings, copied over, were believed")
	}
}
