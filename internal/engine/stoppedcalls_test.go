package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// removeLine is a change to path that removes one line, text.
func removeLine(path, text string) *snapshot.File {
	return &snapshot.File{Path: path, Status: snapshot.Modified, Hunks: []snapshot.Hunk{{OldStart: 4, OldLines: 1, NewStart: 4,
		Lines: []snapshot.Line{{Kind: snapshot.Remove, Old: 4, Text: text}}}}}
}

// Code the change stopped calling is not a test that stopped reaching it (toml 52534926c5:
// errLexInlineTableNL no longer built; a template's `gt`, as cobra's usage text has it): the
// lines of a Go function (or of a method of a type) whose name the change's code mentions less
// now than at the base are not compared. Its neighbours are; and a call removed from a test is
// the weakening coverage is there to see.
func TestCoverageSkipsTheGoFunctionsTheChangeStoppedCalling(t *testing.T) {
	src := "package cobra\n\nfunc Gt(a, b int) bool {\n\treturn a > b\n}\n\nfunc (e errNL) Error() string {\n\treturn \"nl\"\n}\n\nfunc Other() {\n\te()\n}\n"
	read := func(file string) []byte {
		if file == "cobra.go" {
			return []byte(src)
		}
		return nil
	}
	for _, tt := range []struct {
		name    string
		removed *snapshot.File
		line    int
		want    bool // compared
	}{
		{"a template's call, by its lowercased name", removeLine("command.go", `{{if gt (len .Aliases) 0}}`), 4, false},
		{"a direct call", removeLine("command.go", `	if Gt(n, 0) {`), 4, false},
		{"a type's method, the type no longer built", removeLine("lex.go", `	return errNL{}`), 8, false},
		{"the neighbour of a function no longer called", removeLine("command.go", `	if Gt(n, 0) {`), 12, true},
		{"a call removed from a test", removeLine("command_test.go", `	if !Gt(2, 1) {`), 4, true},
		{"a comment naming it deleted", removeLine("command.go", `	// Gt says whether a is greater`), 4, true},
		{"a call moved", &snapshot.File{Path: "command.go", Status: snapshot.Modified, Hunks: []snapshot.Hunk{{OldStart: 4, OldLines: 1, NewStart: 4, NewLines: 1,
			Lines: []snapshot.Line{{Kind: snapshot.Remove, Old: 4, Text: "\tGt(a, b)"}, {Kind: snapshot.Add, New: 4, Text: "\tx := Gt(a, b)"}}}}}, 4, true},
	} {
		ch := &snapshot.Change{Files: []*snapshot.File{tt.removed}}
		untouched := skipStoppedCalls(untouchedLines(ch, nil), ch, read)
		if _, ok := untouched("cobra.go", tt.line); ok != tt.want {
			t.Errorf("%s: cobra.go:%d compared: %v, want %v", tt.name, tt.line, ok, tt.want)
		}
	}
}
