package report

import "testing"

func TestXMLText(t *testing.T) {
	if got, want := xmlText("a\x01b\uFFFEc\x1b[31md\n"), "abcd\n"; got != want {
		t.Errorf("xmlText = %q, want %q", got, want)
	}
}
