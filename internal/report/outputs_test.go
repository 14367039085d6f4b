package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseOutputs(t *testing.T) {
	tests := []struct {
		formats []string
		output  string
		want    []Output
	}{
		{nil, "", []Output{{Format: FormatText}}},
		{nil, "t.txt", []Output{{Format: FormatText, Path: "t.txt"}}},
		{[]string{"json"}, "", []Output{{Format: FormatJSON}}},
		{[]string{"json=-"}, "", []Output{{Format: FormatJSON}}},
		{[]string{"json", "sarif=s.sarif"}, "j.json", []Output{{Format: FormatJSON, Path: "j.json"}, {Format: FormatSARIF, Path: "s.sarif"}}},
		{[]string{"github", "junit=dir/j.xml"}, "", []Output{{Format: FormatGitHub}, {Format: FormatJUnit, Path: "dir/j.xml"}}},
		{[]string{"json=a=b.json"}, "", []Output{{Format: FormatJSON, Path: "a=b.json"}}},
	}
	for _, tt := range tests {
		got, err := ParseOutputs(tt.formats, tt.output, nil)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseOutputs(%q, %q) = %v, %v; want %v", tt.formats, tt.output, got, err, tt.want)
		}
	}
}

func TestParseOutputsRefusesConflicts(t *testing.T) {
	tests := []struct {
		formats []string
		output  string
		want    string
	}{
		{[]string{"json", "sarif"}, "", "both go to stdout"},
		{[]string{"text", "github"}, "", "both go to stdout"},
		{[]string{"json", "sarif=-"}, "", "both go to stdout"},
		{[]string{"json", "sarif"}, "x", "-o x takes the one --format without a file"},
		{[]string{"json=a", "sarif=a"}, "", "both write a"},
		{[]string{"json=a", "sarif=b/../a"}, "", "both write b/../a"},
		{[]string{"json=a", "sarif"}, "a", "both write a"},
		{[]string{"json=a"}, "b", "-o b: every --format already has its file"},
		{[]string{"yaml"}, "", `unknown format "yaml"`},
		{[]string{"=a.json"}, "", `unknown format ""`},
		{[]string{"junit="}, "", "no file after ="},
	}
	for _, tt := range tests {
		if got, err := ParseOutputs(tt.formats, tt.output, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseOutputs(%q, %q) = %v, %v; want an error saying %q", tt.formats, tt.output, got, err, tt.want)
		}
	}
	// The caller decides what "the same file" means: here, case-insensitively.
	same := func(a, b string) bool { return strings.EqualFold(a, b) }
	if _, err := ParseOutputs([]string{"json=R.json", "sarif=r.JSON"}, "", same); err == nil {
		t.Error("two paths the caller says are one file were accepted")
	}
}

func TestWriteOutputs(t *testing.T) {
	dir := t.TempDir()
	r := fixtureReport()
	outs := []Output{
		{Format: FormatText},
		{Format: FormatJSON, Path: filepath.Join(dir, "a.json")},
		{Format: FormatSARIF, Path: filepath.Join(dir, "missing", "b.sarif")},
		{Format: FormatJUnit, Path: filepath.Join(dir, "j.xml")},
	}
	var stdout bytes.Buffer
	err := WriteOutputs(&stdout, outs, r)
	if err == nil || !strings.Contains(err.Error(), "write report") || !strings.Contains(err.Error(), "b.sarif") {
		t.Errorf("err = %v, want the SARIF file's write error", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("text on stdout was written again: %q", stdout.String())
	}
	// The file that could not be written kept none of the others from being written.
	var want bytes.Buffer
	if err := WriteJSON(&want, r); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.json")); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("a.json: %v, not the JSON report", err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "j.xml")); err != nil || !bytes.Contains(got, []byte("<testsuite")) {
		t.Errorf("j.xml: %v %q", err, got)
	}

	stdout.Reset()
	if err := WriteOutputs(&stdout, []Output{{Format: FormatSARIF}, {Format: FormatText, Path: filepath.Join(dir, "t.txt")}}, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), `"version": "2.1.0"`) {
		t.Errorf("SARIF on stdout: %q", stdout.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "t.txt")); !bytes.Contains(got, []byte("gauntlet: ")) || bytes.Contains(got, []byte("\x1b[")) {
		t.Errorf("text file %q, want the summary without colour", got)
	}
}

func TestEveryFormatHasAPrinter(t *testing.T) {
	for _, f := range Formats {
		if _, err := PrinterFor(f, TextOptions{}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A page written into a folder links its logs from that folder to the project root.
func TestOutputLinksLogsFromItsFolder(t *testing.T) {
	root := t.TempDir()
	r := fixtureReport()
	r.Origin = &Origin{Root: root}
	page := filepath.Join(root, "reports", "ci", "run.html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutputs(io.Discard, []Output{{Format: FormatHTML, Path: page}}, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if want := `<a href="../../.gauntlet/logs/20261121T093000Z-4f2a/test.log">`; !strings.Contains(string(data), want) {
		t.Errorf("page lacks %q", want)
	}
}
