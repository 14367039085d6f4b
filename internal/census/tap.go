package census

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

var (
	tapPoint = lazyRegexp(`^(not )?ok\b(?:\s+(\d+))?\s*(?:-\s*)?(.*)$`)
	tapPlan  = lazyRegexp(`^1\.\.(\d+)\b`)
	tapLine  = lazyRegexp(`:\d+:\d+$`)
)

// maxTAPDepth bounds the nesting kept, and with it the names held for the path of a test.
const maxTAPDepth = 64

// tapTest is a test point waiting for its YAML block.
type tapTest struct {
	name    string
	outcome Outcome
	file    string
	suite   bool
}

// ReadTAP reads TAP 13/14 as node --test prints it when its output is not a terminal (node 20's
// default there): subtests are indented four spaces a level under a "# Subtest:" line, and a
// test's name is the path of its parents, "add > nested > deep", as vitest and node's JUnit say
// it. Describe blocks (type 'suite' in their YAML) are containers, not tests. "# SKIP" and
// "# TODO" are skips. TAP names no file: the file is read from a failure's location when
// node gives one. The output is complete when the top-level plan is met.
func ReadTAP(r io.Reader, opts Options) Census {
	tr := &tapReader{b: newBuilder("tap", opts), plan: -1}
	lr := boundedio.NewLineReader(r)
	for {
		raw, ok := lr.Next()
		if !ok {
			break
		}
		tr.line(bytes.TrimRight(raw, " \t"))
	}
	tr.flush()
	tr.end(lr.Err)
	return tr.b.census()
}

// tapReader is ReadTAP's state between lines.
type tapReader struct {
	b          *builder
	stack      []string // "# Subtest:" names by level
	pending    *tapTest
	inYAML     bool
	yamlIndent int
	plan       int // -1 before the top-level plan
	topSeen    int
	sawTAP     bool
}

// line reads one line, trailing blanks trimmed.
func (tr *tapReader) line(raw []byte) {
	bodyBytes := bytes.TrimLeft(raw, " ")
	indent := len(raw) - len(bodyBytes)
	switch {
	case tr.inYAML:
		tr.yamlLine(indent, bodyBytes)
	case string(bodyBytes) == "---" && tr.pending != nil:
		tr.inYAML, tr.yamlIndent = true, indent
	case !tapMay(bodyBytes):
		tr.flush()
	default:
		tr.flush()
		tr.tapLine(indent/4, string(bodyBytes))
	}
}

func (tr *tapReader) flush() {
	if tr.pending != nil && !tr.pending.suite {
		tr.b.add(Test{Name: tr.pending.name, File: tr.pending.file, Outcome: tr.pending.outcome})
	}
	tr.pending = nil
}

// yamlLine reads a line of a test point's YAML block. Only a few lines of it matter; the rest
// (stacks, messages) is not even made a string.
func (tr *tapReader) yamlLine(indent int, body []byte) {
	switch {
	case indent == tr.yamlIndent && string(body) == "...":
		tr.inYAML = false
	case tr.pending == nil || indent != tr.yamlIndent:
	case string(body) == "type: 'suite'":
		tr.pending.suite = true
	case bytes.HasPrefix(body, []byte("location: ")):
		loc := strings.Trim(string(body[len("location: "):]), `'"`)
		tr.pending.file = tapLine().ReplaceAllString(loc, "")
	}
}

// tapLine reads a line of TAP's own at a level of nesting.
func (tr *tapReader) tapLine(level int, body string) {
	if level > maxTAPDepth {
		tr.b.incomplete(fmt.Sprintf("TAP nested deeper than %d levels", maxTAPDepth))
		return
	}
	switch {
	case strings.HasPrefix(body, "TAP version"):
		tr.sawTAP = true
	case strings.HasPrefix(body, "# Subtest: "):
		tr.stack = append(tr.stack[:min(level, len(tr.stack))], tr.b.bound(strings.TrimPrefix(body, "# Subtest: ")))
	case strings.HasPrefix(body, "Bail out!"):
		tr.b.incomplete("the TAP output bailed out")
	case tapPlan().MatchString(body):
		if n, err := strconv.Atoi(tapPlan().FindStringSubmatch(body)[1]); err == nil && level == 0 {
			tr.plan = n
		}
	case strings.HasPrefix(body, "ok") || strings.HasPrefix(body, "not ok"):
		tr.point(level, body)
	}
}

// point reads a test point ("ok 1 - name", "not ok 2 - name # SKIP"): it waits for its YAML.
func (tr *tapReader) point(level int, body string) {
	m := tapPoint().FindStringSubmatch(body)
	if m == nil {
		return
	}
	tr.sawTAP = true
	if level == 0 {
		tr.topSeen++
	}
	name, directive := tapDirective(m[3])
	path := append([]string(nil), tr.stack[:min(level, len(tr.stack))]...)
	tr.pending = &tapTest{outcome: tapOutcome(m[1] != "", directive), name: strings.Join(append(path, name), " > ")}
}

// tapOutcome is a test point's outcome: a failing todo is not a failure, a passing one not a
// test yet.
func tapOutcome(notOK bool, directive string) Outcome {
	if d := strings.ToUpper(directive); strings.HasPrefix(d, "SKIP") || strings.HasPrefix(d, "TODO") {
		return Skip
	}
	if notOK {
		return Fail
	}
	return Pass
}

// end judges the output as a whole once read (err, an error reading it).
func (tr *tapReader) end(err error) {
	switch {
	case err != nil:
		tr.b.incomplete("reading TAP: " + err.Error())
	case !tr.sawTAP:
		tr.b.incomplete("no TAP test points in the output")
	case tr.plan < 0:
		tr.b.incomplete("the TAP output ended before its plan")
	case tr.topSeen < tr.plan:
		tr.b.incomplete(fmt.Sprintf("the TAP plan counts %d tests, %d were reported", tr.plan, tr.topSeen))
	}
}

// tapMay is false for a line that is none of TAP's own: a test's output, a diagnostic.
func tapMay(body []byte) bool {
	if len(body) == 0 {
		return false
	}
	switch body[0] {
	case 'T', '#', 'B', '1', 'o', 'n':
		return true
	}
	return false
}

// tapDirective splits a test point's description from its directive ("# SKIP reason"); node
// escapes a '#' of a name as "\#".
func tapDirective(s string) (name, directive string) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '#' && (i == 0 || s[i-1] == ' ') {
			name, directive = s[:i], strings.TrimSpace(s[i+1:])
			break
		}
	}
	if directive == "" {
		name = s
	}
	name = strings.NewReplacer(`\#`, `#`, `\\`, `\`).Replace(strings.TrimSpace(name))
	return name, directive
}
