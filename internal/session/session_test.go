package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// TestMain keeps the key and the records out of the real user's state directory.
func TestMain(m *testing.M) { os.Exit(testos.RunWithUserState(m)) }

func TestTheFirstPinWins(t *testing.T) {
	project := t.TempDir()
	first, err := Pin(&Record{Project: project, Session: "claude/s1", Base: "aaaa", How: PinnedAtStart, Pinned: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Pin(&Record{Project: project, Session: "claude/s1", Base: "bbbb", How: PinnedAtStop, Pinned: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if again.Base != "aaaa" || first.Base != "aaaa" {
		t.Errorf("a later hook call moved the pin: %q", again.Base)
	}
	other, err := Pin(&Record{Project: project, Session: "claude/s2", Base: "cccc"})
	if err != nil || other.Base != "cccc" {
		t.Errorf("another session has its own pin: %+v, %v", other, err)
	}
}

func TestAPinWrittenByHandIsNotBelieved(t *testing.T) {
	project := t.TempDir()
	if _, err := Pin(&Record{Project: project, Session: "s", Base: "aaaa"}); err != nil {
		t.Fatal(err)
	}
	key, err := seal.Load()
	if err != nil {
		t.Fatal(err)
	}
	p := path(key, project, "s")
	data, _ := os.ReadFile(p)
	var r Record
	json.Unmarshal(data, &r)
	r.Base = "bbbb" // the agent moves its own base
	data, _ = json.Marshal(r)
	os.WriteFile(p, data, 0o600)
	if _, err := Load(project, "s"); !errors.Is(err, ErrTampered) {
		t.Errorf("a record edited by hand: %v, want ErrTampered", err)
	}
	// Nor is a record copied from another session.
	if _, err := Pin(&Record{Project: project, Session: "t", Base: "cccc"}); err != nil {
		t.Fatal(err)
	}
	other, _ := os.ReadFile(path(key, project, "t"))
	os.WriteFile(path(key, project, "u"), other, 0o600)
	if _, err := Load(project, "u"); !errors.Is(err, ErrTampered) {
		t.Errorf("another session's record: %v, want ErrTampered", err)
	}
}

func TestFindLooksUpFromBelowTheProject(t *testing.T) {
	project := t.TempDir()
	if _, err := Pin(&Record{Project: project, Session: "s", Base: "aaaa", ConfigPath: ".gauntlet.yml", Config: []byte("version: 1\n")}); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(project, "a", "b")
	got, err := Find(sub, "s")
	if err != nil || got == nil || got.Base != "aaaa" || string(got.Config) != "version: 1\n" {
		t.Errorf("Find from below: %+v, %v", got, err)
	}
	if got, err := Find(sub, "none"); got != nil || err != nil {
		t.Errorf("a session never pinned: %+v, %v", got, err)
	}
}

func TestPruneKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, nil, 0o600)
		at := time.Now().Add(time.Duration(i) * time.Hour)
		os.Chtimes(p, at, at)
	}
	pruneSessions(dir, 2)
	if _, err := os.Stat(filepath.Join(dir, "a")); err == nil {
		t.Error("the oldest record was kept")
	}
	for _, name := range []string{"b", "c"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A record is believed for what it decodes to, as written or re-encoded (indented, its keys in
// another order); an edit of a value that the seal covers is not, wherever it is made.
func TestARecordIsBelievedForWhatItSays(t *testing.T) {
	project := t.TempDir()
	pinned, err := Pin(&Record{Project: project, Session: "s", Base: "aaaa", Config: []byte("version: 1\n"),
		Env: map[string]string{"PATH": "/usr/bin"}, Pinned: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	key, err := seal.Load()
	if err != nil {
		t.Fatal(err)
	}
	p := path(key, project, "s")
	written, _ := os.ReadFile(p)
	var indented bytes.Buffer
	json.Indent(&indented, written, "", "  ")
	reordered := bytes.Replace(written, []byte(`{"project":`+quote(project)+`,`), []byte(`{`), 1)
	reordered = append(bytes.TrimSuffix(reordered, []byte(`}`)), []byte(`,"project":`+quote(project)+`}`)...)
	for name, data := range map[string][]byte{"as written": written, "indented": indented.Bytes(), "reordered": reordered} {
		os.WriteFile(p, data, 0o600)
		if got, err := Load(project, "s"); err != nil || got.Base != pinned.Base || !got.Pinned.Equal(pinned.Pinned) {
			t.Errorf("%s: Load = %+v, %v; want the pinned record", name, got, err)
		}
	}
	for name, data := range map[string][]byte{
		"base moved":        bytes.Replace(written, []byte(`"base":"aaaa"`), []byte(`"base":"bbbb"`), 1),
		"a key added first": bytes.Replace(written, []byte(`{`), []byte(`{"late":true,`), 1),
		"seal cut":          bytes.Replace(written, []byte(`,"mac":"`), []byte(`,"mac":"1`), 1),
	} {
		os.WriteFile(p, data, 0o600)
		if _, err := Load(project, "s"); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: %v, want ErrTampered", name, err)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// An advance kept for a HEAD is found again for that HEAD only, and not once edited.
func TestAdvanceKeptPerHead(t *testing.T) {
	project := t.TempDir()
	a := &Advance{Project: project, Session: "s", Head: "h1", Base: "b1", Via: "origin/main", ConfigPath: ".gauntlet.yml", Config: []byte("version: 1\n")}
	if err := SaveAdvance(a); err != nil {
		t.Fatal(err)
	}
	got := LoadAdvance(project, "s", "h1")
	if got == nil || got.Base != "b1" || got.Via != "origin/main" || string(got.Config) != "version: 1\n" || got.MAC == "" {
		t.Fatalf("LoadAdvance = %+v", got)
	}
	if LoadAdvance(project, "s", "h2") != nil {
		t.Error("an advance kept for another HEAD was found")
	}
	key, err := seal.Load()
	if err != nil {
		t.Fatal(err)
	}
	p := advancePath(key, project, "s")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte(`"base":"b1"`), []byte(`"base":"b0"`), 1), 0o600)
	if got := LoadAdvance(project, "s", "h1"); got != nil {
		t.Errorf("an edited advance was believed: %+v", got)
	}
}
