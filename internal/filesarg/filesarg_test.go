package filesarg

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

var linux = oscmd.System{GOOS: "linux"}

// windowsWithoutGit has no Git for Windows: the default shell is cmd.
var windowsWithoutGit = oscmd.System{GOOS: "windows", Getenv: func(string) string { return "" }}

func TestOneBatchQuotedForSh(t *testing.T) {
	g := gates.Gate{Name: "lint", Run: "eslint --max-warnings 0 {files}", Files: []string{"a.js", "my file.js", "it's.js", "$(rm -rf x).js"}}
	got := Batches(g, linux)
	if len(got) != 1 {
		t.Fatalf("%d batches", len(got))
	}
	want := `eslint --max-warnings 0 a.js 'my file.js' 'it'\''s.js' '$(rm -rf x).js'`
	if got[0].Run != want {
		t.Errorf("run = %s\nwant  %s", got[0].Run, want)
	}
}

func TestArgvElementBecomesTheFiles(t *testing.T) {
	g := gates.Gate{Argv: []string{"gofmt", "-l", "{files}", "--"}, Files: []string{"a.go", "b c.go"}}
	got := Batches(g, linux)
	if len(got) != 1 || !slices.Equal(got[0].Argv, []string{"gofmt", "-l", "a.go", "b c.go", "--"}) {
		t.Errorf("argv = %q", got[0].Argv)
	}
}

// Every file lands in exactly one batch, in order, and every batch's command fits the limit.
func TestBatchesFitTheLimit(t *testing.T) {
	var files []string
	for i := range 5000 {
		files = append(files, fmt.Sprintf("src/some/deeper/directory/file-with-a-long-name-%04d.ts", i))
	}
	for _, c := range []struct {
		name  string
		g     gates.Gate
		sys   oscmd.System
		limit int
	}{
		{"sh", gates.Gate{Run: "prettier --check {files}"}, linux, unixLimit},
		{"argv", gates.Gate{Argv: []string{"prettier", "--check", "{files}"}}, linux, unixLimit},
		{"cmd", gates.Gate{Run: "prettier --check {files}"}, windowsWithoutGit, cmdLimit},
		{"pwsh", gates.Gate{Run: "prettier --check {files}", Shell: oscmd.ShellPwsh}, windowsWithoutGit, windowsLimit},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.g.Files = files
			batches := Batches(c.g, c.sys)
			if len(batches) < 2 {
				t.Fatalf("%d files in %d batch", len(files), len(batches))
			}
			var seen []string
			for _, b := range batches {
				if n := len(b.Command()); n > c.limit {
					t.Errorf("a batch of %d files is %d bytes long, over %d", len(b.Files), n, c.limit)
				}
				seen = append(seen, b.Files...)
			}
			if !slices.Equal(seen, files) {
				t.Errorf("the batches hold %d files, not the %d in order", len(seen), len(files))
			}
		})
	}
}

func TestQuotingPerWindowsShell(t *testing.T) {
	files := []string{"plain.ts", "with space.ts", "it's.ts"}
	cmd := Batches(gates.Gate{Run: "tool {files}", Files: files}, windowsWithoutGit)[0].Run
	if cmd != `tool plain.ts "with space.ts" "it's.ts"` {
		t.Errorf("cmd: %s", cmd)
	}
	ps := Batches(gates.Gate{Run: "tool {files}", Shell: oscmd.ShellPowerShell, Files: files}, windowsWithoutGit)[0].Run
	if ps != `tool 'plain.ts' 'with space.ts' 'it''s.ts'` {
		t.Errorf("powershell: %s", ps)
	}
}

func TestGateWithoutFilesIsAsDeclared(t *testing.T) {
	g := gates.Gate{Run: "eslint ."}
	if got := Batches(g, linux); len(got) != 1 || got[0].Run != "eslint ." {
		t.Errorf("%+v", got)
	}
	if Uses(g) || !Uses(gates.Gate{Run: "x {files}"}) || !Uses(gates.Gate{Argv: []string{"x", "{files}"}}) {
		t.Error("Uses")
	}
	if strings.Contains(Batches(gates.Gate{Run: "a {files} b {files}", Files: []string{"f"}}, linux)[0].Run, Placeholder) {
		t.Error("a second {files} left in place")
	}
}
