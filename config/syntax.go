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
	return p.problem("invalid YAML: " + msg)
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
