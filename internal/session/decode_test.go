package session

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// decodeRecord gives what encoding/json gives for every record json.Marshal writes, and takes
// the plain ones (no string json.Marshal escapes) without it.
func TestDecodeRecordAsEncodingJSON(t *testing.T) {
	pinned := time.Date(2026, 11, 26, 18, 13, 42, 123456789, time.UTC)
	plain := Record{Project: "/tmp/p", Session: "claude/abc", Base: "bd5d8d6841a1ac58", Head: "cafe", How: PinnedAtStop,
		Pinned: pinned, ConfigPath: ".gauntlet.yml", Config: []byte("version: 1\ngates:\n  t:\n    run: echo \"a\" <&>\n"),
		Env: map[string]string{"PATH": "/usr/bin:/bin", "go env GOFLAGS": "sha256=0123", "GOFLAGS": "-mod=mod"}, EnvFormat: 2,
		Deps: []string{"node_modules", ".venv"}, Remotes: map[string]string{"origin": "https://example.com/r.git"}, Late: true}
	records := map[string]Record{
		"plain":       plain,
		"bare":        {Project: "/p", Session: "s", How: PinnedAtStart},
		"empty lists": {Project: "/p", Session: "s", Env: map[string]string{}, Deps: []string{}, Remotes: map[string]string{}},
		"negative":    {Project: "/p", Session: "s", EnvFormat: -12, Pinned: pinned.In(time.FixedZone("x", 3600))},
		"unicode":     {Project: "/tmp/prøjekt ✓", Session: "s", Env: map[string]string{"PATH": "/opt/ünï"}},
	}
	escaped := map[string]Record{
		"a quote":        {Project: `/tmp/"p"`, Session: "s"},
		"html":           {Project: "/tmp/a<b>&c", Session: "s"},
		"control":        {Project: "/tmp/p", Session: "s\t1"},
		"line separator": {Project: "/tmp/p\u2028", Session: "s"},
		"env value":      {Project: "/p", Session: "s", Env: map[string]string{"NODE_OPTIONS": `--require "x"`}},
	}
	// A field added to Record must be set here, and so be read by decodeRecord too.
	for i := range reflect.TypeFor[Record]().NumField() {
		if f := reflect.TypeFor[Record]().Field(i); f.Name != "MAC" && reflect.ValueOf(plain).Field(i).IsZero() {
			t.Fatalf("the plain record leaves %s unset", f.Name)
		}
	}
	check := func(name string, r Record, plainWanted bool) {
		t.Helper()
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var want, got Record
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		ok := decodeRecord(data, &got)
		if ok != plainWanted {
			t.Errorf("%s: decodeRecord took it: %v, want %v (%s)", name, ok, plainWanted, data)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decodeRecord = %+v, encoding/json %+v", name, got, want)
		}
	}
	for name, r := range records {
		check(name, r, true)
	}
	for name, r := range escaped {
		check(name, r, false)
	}
	// Any other form is left to encoding/json.
	for _, data := range []string{
		`{"session":"s","project":"/p","base":"","how":"","pinned":"0001-01-01T00:00:00Z"}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z","extra":1}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z"} `,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z","env_format":02}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"yesterday"}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z","config":"!!"}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z","env":{"A":"1","A":"2"}}`,
		`{"project":"/p","session":"s","base":"","how":"","pinned":"0001-01-01T00:00:00Z","deps":["a",]}`,
	} {
		if decodeRecord([]byte(data), &Record{}) {
			t.Errorf("decodeRecord took %s", data)
		}
	}
}
