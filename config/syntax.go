package config

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

var yamlErrorLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parserProblems are the messages of yaml's parser stage. Unlike its scanner stage, the parser
// reports 0-based lines, and the line where the enclosing block or flow starts rather than the
// line at fault.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// Refining a parser error's line reparses growing prefixes of the file; these bound that work.
const (
	maxRefineBytes = 64 << 10
	maxRefineLines = 200
)

// syntaxProblem turns yaml's "yaml: line N: msg" into a Problem. yaml gives no column, and no
// line at all for errors on line 1.
func syntaxProblem(file string, data []byte, err error) Problem {
	p := pos{file: file, line: 1, col: 1}
	msg := yamlMessage(err)
	if m := yamlErrorLine().FindStringSubmatch(err.Error()); m != nil {
		if line, convErr := strconv.Atoi(m[1]); convErr == nil && line > 0 {
			p.line = line
			if slices.Contains(parserProblems, msg) {
				p.line = refineLine(data, line+1, msg)
			}
		}
	}
	// Errors found at the end of input are reported on the line after the last one.
	p.line = min(p.line, max(lineCount(data), 1))
	hint, col := syntaxHint(msg, lineAt(data, p.line))
	if col > 0 {
		p.col = col
	}
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return p.problem("invalid YAML: " + msg)
}

// lineAt is the 1-based line n of data, without its newline; "" past the end.
func lineAt(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSuffix(lines[n-1], "\r")
}

// indentHint is the hint for the parser's errors that a misindented line causes.
const indentHint = "check the indentation: the keys of one mapping start in the same column, indented with spaces"

// syntaxHint says what the common mistakes behind yaml's message look like on the line at fault
// (a tab, an unquoted ": ", "*" or "@", a key out of line), in the words a user fixes it by, and
// the column of a tab; "" and 0 when the message is not one of them.
func syntaxHint(msg, line string) (hint string, col int) {
	switch msg {
	case "found character that cannot start any token":
		if i := strings.IndexByte(line, '\t'); i >= 0 || line == "" {
			return "tabs are not allowed for indentation in YAML; use spaces", i + 1
		}
		return quoteHint(line, "@`", `"@" or "`+"`"+`"`), 0
	case "did not find expected alphabetic or numeric character":
		return quoteHint(line, "*&", `"*" or "&"`), 0
	case "mapping values are not allowed in this context":
		return `a value holding ": " must be quoted: run: "echo 'a: b'"`, 0
	case "did not find expected key", "did not find expected '-' indicator":
		return indentHint, 0
	}
	return "", 0
}

// quoteHint says that a value starting with one of starts must be quoted, quoting the value on
// line that does.
func quoteHint(line, starts, named string) string {
	hint := "a value starting with " + named + " must be quoted"
	for _, word := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '[' || r == ',' || r == ']' }) {
		if strings.ContainsRune(starts, rune(word[0])) {
			return hint + ": " + strconv.Quote(word)
		}
	}
	return hint
}

func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// refineLine finds the line at fault from the line where the enclosing construct starts: the
// first prefix of the file, from there on, that fails with the same message ends on it.
func refineLine(data []byte, from int, msg string) int {
	if len(data) > maxRefineBytes {
		return from
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for n := from; n <= len(lines) && n < from+maxRefineLines; n++ {
		if err := parseAll(bytes.Join(lines[:n], nil)); err != nil && yamlMessage(err) == msg {
			return n
		}
	}
	return from
}

func yamlMessage(err error) string {
	if m := yamlErrorLine().FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

func parseAll(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
