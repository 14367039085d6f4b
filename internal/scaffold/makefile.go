package scaffold

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// makeTargets are the targets that conventionally check a project, in the order gates list them.
var makeTargets = []struct {
	name    string
	comment string
	timeout time.Duration
}{
	{"lint", "the lint target of the Makefile", 5 * time.Minute},
	{"check", "the check target of the Makefile", 10 * time.Minute},
	{"test", "the test target of the Makefile", 10 * time.Minute},
}

// ruleLine matches a rule's target list: "test lint: deps", but not "X := y" or "X ::= y".
var ruleLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^\s:#=][^:#=]*?)\s*::?(?:[^:=]|$)`) })

func detectMake(dir string) *Project {
	name := firstExisting(dir, []string{"GNUmakefile", "makefile", "Makefile"})
	if name == "" {
		return nil
	}
	data := readCapped(filepath.Join(dir, name))
	if data == nil {
		return nil
	}
	defined := definedTargets(data)
	p := &Project{Kind: "Make"}
	for _, t := range makeTargets {
		if defined[t.name] {
			p.Gates = append(p.Gates, Gate{Name: t.name, Comment: t.comment, Run: "make " + t.name, Timeout: t.timeout})
		}
	}
	if len(p.Gates) == 0 {
		return nil
	}
	return p
}

// definedTargets are the targets a Makefile's rules define.
func definedTargets(data []byte) map[string]bool {
	defined := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := ruleLine().FindStringSubmatch(sc.Text()); m != nil {
			for _, t := range strings.Fields(m[1]) {
				defined[t] = true
			}
		}
	}
	return defined
}
