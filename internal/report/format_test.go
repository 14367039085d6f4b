package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	for _, bad := range []string{"", "JSON", "xml"} {
		if _, err := ParseFormat(bad); err == nil || !strings.Contains(err.Error(), "text, json, junit, github") {
			t.Errorf("ParseFormat(%q) error = %v, want one listing the formats", bad, err)
		}
	}
}

func TestWriteDispatches(t *testing.T) {
	r := fixtureReport()
	tests := map[Format]func(*bytes.Buffer) error{
		FormatText:   func(b *bytes.Buffer) error { return WriteText(b, r, TextOptions{TailLines: 2}) },
		FormatJSON:   func(b *bytes.Buffer) error { return WriteJSON(b, r) },
		FormatJUnit:  func(b *bytes.Buffer) error { return WriteJUnit(b, r) },
		FormatGitHub: func(b *bytes.Buffer) error { return WriteGitHub(b, r) },
	}
	for f, direct := range tests {
		var got, want bytes.Buffer
		if err := Write(&got, f, r, TextOptions{TailLines: 2}); err != nil {
			t.Fatal(err)
		}
		if err := direct(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("Write(%s) differs from its renderer", f)
		}
	}
	if err := Write(&bytes.Buffer{}, "yaml", r, TextOptions{}); err == nil {
		t.Error("Write accepted an unknown format")
	}
}
