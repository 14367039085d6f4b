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
	b := newBuilder("tap", opts)
	var (
		stack         []string // "# Subtest:" names by level
		pending       *tapTest
		inYAML        bool
		yamlIndent    int
		plan, topSeen = -1, 0
		sawTAP        bool
	)
	flush := func() {
		if pending != nil && !pending.suite {
			b.add(Test{Name: pending.name, File: pending.file, Outcome: pending.outcome})
		}
		pending = nil
	}
	lr := boundedio.NewLineReader(r)
	for {
		raw, ok := lr.Next()
		if !ok {
			break
		}
		raw = bytes.TrimRight(raw, " \t")
		bodyBytes := bytes.TrimLeft(raw, " ")
		indent := len(raw) - len(bodyBytes)
		if inYAML {
			// Only a few lines of a YAML block matter; the rest (stacks, messages) is not
			// even made a string.
			switch {
			case indent == yamlIndent && string(bodyBytes) == "...":
				inYAML = false
			case pending == nil || indent != yamlIndent:
			case string(bodyBytes) == "type: 'suite'":
				pending.suite = true
			case bytes.HasPrefix(bodyBytes, []byte("location: ")):
				loc := strings.Trim(string(bodyBytes[len("location: "):]), `'"`)
				pending.file = tapLine().ReplaceAllString(loc, "")
			}
			continue
		}
		if string(bodyBytes) == "---" && pending != nil {
			inYAML, yamlIndent = true, indent
			continue
		}
		if !tapMay(bodyBytes) {
			flush()
			continue
		}
		body := string(bodyBytes)
		flush()
		level := indent / 4
		if level > maxTAPDepth {
			b.incomplete(fmt.Sprintf("TAP nested deeper than %d levels", maxTAPDepth))
			continue
		}
		switch {
		case strings.HasPrefix(body, "TAP version"):
			sawTAP = true
		case strings.HasPrefix(body, "# Subtest: "):
			stack = append(stack[:min(level, len(stack))], b.bound(strings.TrimPrefix(body, "# Subtest: ")))
		case strings.HasPrefix(body, "Bail out!"):
			b.incomplete("the TAP output bailed out")
		case tapPlan().MatchString(body):
			if n, err := strconv.Atoi(tapPlan().FindStringSubmatch(body)[1]); err == nil && level == 0 {
				plan = n
			}
		case strings.HasPrefix(body, "ok") || strings.HasPrefix(body, "not ok"):
			m := tapPoint().FindStringSubmatch(body)
			if m == nil {
				continue
			}
			sawTAP = true
			if level == 0 {
				topSeen++
			}
			name, directive := tapDirective(m[3])
			t := &tapTest{outcome: Pass, name: name}
			if m[1] != "" {
				t.outcome = Fail
			}
			if d := strings.ToUpper(directive); strings.HasPrefix(d, "SKIP") || strings.HasPrefix(d, "TODO") {
				t.outcome = Skip // a failing todo is not a failure, a passing one not a test yet
			}
			path := append([]string(nil), stack[:min(level, len(stack))]...)
			t.name = strings.Join(append(path, name), " > ")
			pending = t
		}
	}
	flush()
	switch {
	case lr.Err != nil:
		b.incomplete("reading TAP: " + lr.Err.Error())
	case !sawTAP:
		b.incomplete("no TAP test points in the output")
	case plan < 0:
		b.incomplete("the TAP output ended before its plan")
	case topSeen < plan:
		b.incomplete(fmt.Sprintf("the TAP plan counts %d tests, %d were reported", plan, topSeen))
	}
	return b.census()
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
