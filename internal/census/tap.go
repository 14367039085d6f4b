package census

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

var (
	tapPoint = regexp.MustCompile(`^(not )?ok\b(?:\s+(\d+))?\s*(?:-\s*)?(.*)$`)
	tapPlan  = regexp.MustCompile(`^1\.\.(\d+)\b`)
	tapLine  = regexp.MustCompile(`:\d+:\d+$`)
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
	lr := newLineReader(r)
	for {
		raw, ok := lr.next()
		if !ok {
			break
		}
		line := strings.TrimRight(string(raw), " \t")
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		if inYAML {
			if body == "..." && indent == yamlIndent {
				inYAML = false
			} else if pending != nil && indent == yamlIndent {
				switch {
				case body == "type: 'suite'":
					pending.suite = true
				case strings.HasPrefix(body, "location: "):
					loc := strings.Trim(strings.TrimPrefix(body, "location: "), `'"`)
					pending.file = tapLine.ReplaceAllString(loc, "")
				}
			}
			continue
		}
		if body == "---" && pending != nil {
			inYAML, yamlIndent = true, indent
			continue
		}
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
		case tapPlan.MatchString(body):
			if n, err := strconv.Atoi(tapPlan.FindStringSubmatch(body)[1]); err == nil && level == 0 {
				plan = n
			}
		case strings.HasPrefix(body, "ok") || strings.HasPrefix(body, "not ok"):
			m := tapPoint.FindStringSubmatch(body)
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
	case lr.err != nil:
		b.incomplete("reading TAP: " + lr.err.Error())
	case !sawTAP:
		b.incomplete("no TAP test points in the output")
	case plan < 0:
		b.incomplete("the TAP output ended before its plan")
	case topSeen < plan:
		b.incomplete(fmt.Sprintf("the TAP plan counts %d tests, %d were reported", plan, topSeen))
	}
	return b.census()
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
