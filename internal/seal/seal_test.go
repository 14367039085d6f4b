package seal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestKeyIsCreatedPrivatelyAndKept(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	k, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(state, "gauntlet")
	if k.StateDir() != dir {
		t.Fatalf("StateDir = %s, want %s", k.StateDir(), dir)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, keyFile): 0o600} {
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != want {
				t.Errorf("%s has mode %s, want %s", path, info.Mode().Perm(), want)
			}
		}
	}
	// Read again by another process (the memo forgotten): the same key.
	delete(loaded, dir)
	again, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if again.Sum("p", "r", []byte("x")) != k.Sum("p", "r", []byte("x")) {
		t.Fatal("the key changed between two loads")
	}
	// Another user's state directory: another key.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	other, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if other.Verify(k.Sum("p", "r", []byte("x")), "p", "r", []byte("x")) {
		t.Fatal("a seal made with one key verifies with another")
	}
}

func TestAKeyOthersCanReadIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "gauntlet")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, keyFile), []byte("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"), 0o644)
	if _, err := Load(); err == nil {
		t.Fatal("a world-readable key was accepted")
	}
	os.Chmod(filepath.Join(dir, keyFile), 0o600)
	if _, err := Load(); err != nil {
		t.Fatal(err)
	}
}

func TestSumBindsPurposeAndProject(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	k, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	s := k.Sum("ledger", "/a", []byte("x"), []byte("y"))
	for _, tc := range []struct {
		purpose, project string
		parts            [][]byte
	}{
		{"cache", "/a", [][]byte{[]byte("x"), []byte("y")}},
		{"ledger", "/b", [][]byte{[]byte("x"), []byte("y")}},
		{"ledger", "/a", [][]byte{[]byte("xy")}},
		{"ledger", "/a", [][]byte{[]byte("x"), []byte("z")}},
	} {
		if k.Verify(s, tc.purpose, tc.project, tc.parts...) {
			t.Errorf("verifies for %+v", tc)
		}
	}
	if !k.Verify(s, "ledger", "/a", []byte("x"), []byte("y")) {
		t.Error("does not verify what it sealed")
	}
	var nilKey *Key
	if nilKey.Verify(s, "ledger", "/a", []byte("x"), []byte("y")) {
		t.Error("no key verified a seal")
	}
}

type record struct {
	Pass  string            `json:"pass"`
	Count int               `json:"count"`
	Map   map[string]string `json:"map,omitempty"`
	MAC   string            `json:"mac,omitempty"`
}

func (r *record) SealField() *string { return &r.MAC }

func TestSealJSONSurvivesTheFileAndNoEdit(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	k, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &record{Pass: "fp", Count: 2, Map: map[string]string{"b": "2", "a": "1", "bytes": "a\xffb\x01"}}
	if err := k.SealJSON("rec", "/p", r); err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(r, "", "  ")
	decode := func(s string) *record {
		var back record
		if err := json.Unmarshal([]byte(s), &back); err != nil {
			t.Fatal(err)
		}
		return &back
	}
	if !k.VerifyJSON("rec", "/p", decode(string(data))) {
		t.Fatal("an untouched file does not verify")
	}
	same := `{"pass":"fp","count":2,"map":{"a":"1","b":"2","bytes":"a\ufffdb\u0001"},"mac":"` + r.MAC + `"}`
	if !k.VerifyJSON("rec", "/p", decode(same)) {
		t.Fatal("the same values, spelt otherwise, do not verify")
	}
	for _, forged := range []string{
		`{"pass":"other","count":2,"map":{"a":"1","b":"2","bytes":"a\ufffdb\u0001"},"mac":"` + r.MAC + `"}`,
		`{"pass":"fp","count":2,"map":{"a":"1","b":"2","bytes":"a\ufffdb\u0001"},"PASS":"other","mac":"` + r.MAC + `"}`,
		`{"pass":"fp","count":2,"map":{"a":"1","b":"2","bytes":"a\ufffdb\u0001"},"count":9,"mac":"` + r.MAC + `"}`,
		`{"pass":"fp","count":2,"map":{"a":"1","b":"2","bytes":"a\ufffdb\u0001"}}`,
	} {
		if k.VerifyJSON("rec", "/p", decode(forged)) {
			t.Errorf("a forged file verifies: %s", forged)
		}
	}
	if k.VerifyJSON("rec", "/other", decode(string(data))) {
		t.Error("a file of another project verifies")
	}
}

// A project's folder beside the key holds its files; two projects never share one.
func TestProjectDirHoldsTheProjectsFiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	k, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := k.ProjectDir("/p/.gauntlet")
	if got := k.ProjectFile("/p/.gauntlet", "history.json"); got != filepath.Join(dir, "history.json") {
		t.Errorf("ProjectFile = %s, not in ProjectDir %s", got, dir)
	}
	if filepath.Dir(filepath.Dir(dir)) != k.StateDir() {
		t.Errorf("ProjectDir %s is not under %s/projects", dir, k.StateDir())
	}
	if k.ProjectDir("/q/.gauntlet") == dir {
		t.Error("two projects share a folder")
	}
}

// VerifyEncoded reads a sealed file's bytes without decoding them: it accepts the file as SealJSON's
// value was written, compact or indented, and nothing VerifyJSON would refuse.
func TestVerifyEncodedAcceptsTheFileAsWrittenAndNoEdit(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	k, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &record{Pass: "fp <&>", Count: 2, Map: map[string]string{"b": "2", "a": "1 \u2028 é", "mac": "x"}}
	if err := k.SealJSON("rec", "/p", r); err != nil {
		t.Fatal(err)
	}
	compact, _ := json.Marshal(r)
	indented, _ := json.MarshalIndent(r, "", "  ")
	for _, file := range [][]byte{compact, append(indented, '\n')} {
		if !k.VerifyEncoded("rec", "/p", file) {
			t.Errorf("the file as written does not verify:\n%s", file)
		}
		var back record
		if err := json.Unmarshal(file, &back); err != nil || !k.VerifyJSON("rec", "/p", &back) {
			t.Errorf("VerifyJSON refuses what VerifyEncoded accepts: %s", file)
		}
	}
	if k.VerifyEncoded("rec", "/other", compact) || k.VerifyEncoded("other", "/p", compact) {
		t.Error("a file of another project or purpose verifies")
	}
	var nilKey *Key
	if nilKey.VerifyEncoded("rec", "/p", compact) {
		t.Error("a nil key verifies")
	}
	c := string(compact)
	for _, forged := range []string{
		strings.Replace(c, `"count":2`, `"count":3`, 1),
		strings.Replace(c, `"pass":"fp`, `"pass":"FP`, 1),
		strings.Replace(c, `{"pass"`, `{"count":9,"pass"`, 1),
		strings.Replace(c, `,"mac":"`, `,"pass":"other","mac":"`, 1),
		strings.Replace(c, `"}`, `","x":1}`, 1),
		c + `{}`,
		c[:len(c)-2] + `0"}`,
		`{"mac":"` + r.MAC + `"}`,
		`[` + c + `]`,
		"",
	} {
		if k.VerifyEncoded("rec", "/p", []byte(forged)) {
			t.Errorf("a forged file verifies: %s", forged)
		}
	}
	// Another spelling of the same values is VerifyJSON's to accept.
	reordered := `{"count":2,"pass":"fp \u003c\u0026\u003e","map":{"a":"1 \u2028 é","b":"2","mac":"x"},"mac":"` + r.MAC + `"}`
	var back record
	if err := json.Unmarshal([]byte(reordered), &back); err != nil || !k.VerifyJSON("rec", "/p", &back) {
		t.Fatalf("the same values in another order do not verify: %v", err)
	}
	if k.VerifyEncoded("rec", "/p", []byte(reordered)) {
		t.Error("VerifyEncoded accepts bytes other than the sealed ones")
	}
}
