package integrity

import (
	"path"
	"slices"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// special-cased: an added condition in code that compares its inputs with literals and returns a
// literal, where one line of a test beside the code holds them all (the input and the expected
// value in one assertion or table row): `if c == 999 && pct == 10 { return 899 }` for
// `Price(999, 10) != 899`. A sentinel (`if n == 0 { return 1 }`) compares with a literal too
// common to be taken from a test, and a lookup table is a map or a switch, not an if.

var (
	condLine = map[lang]*lazyRegexp{
		langGo:     lazy(`^\s*(?:}\s*else\s+)?if\s+(.*?)\s*\{\s*(.*)$`),
		langJS:     lazy(`^\s*(?:}\s*else\s+)?if\s*\((.*)\)\s*\{?\s*(.*)$`),
		langPython: lazy(`^\s*(?:el)?if\s+(.*?):\s*(.*)$`),
	}
	literalToken = lazy(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\b\d+(?:\.\d+)?\b`)
	comparedLit  = lazy(`(?:===?)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\b\d+(?:\.\d+)?)\s*===?`)
	returnLit    = lazy(`^\s*return\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?)\s*[,;})]?`)
)

// trivial literals are the sentinels any code compares with.
var trivialLiterals = []string{"", "0", "1", "-1", "2", "0.0", "1.0"}

func (j *judge) specialCased(f File, l lang) {
	re := condLine[l]
	if re == nil {
		return
	}
	for i, a := range f.Added {
		m := re.FindStringSubmatch(a.Text)
		if m == nil {
			continue
		}
		compared := comparedLiterals(m[1])
		ret := returnedLiteral(m[2], nextAdded(f, i))
		if len(compared) == 0 || ret == "" || !slices.ContainsFunc(compared, specific) {
			continue
		}
		if line, file, ok := j.testLineWith(f.Path, append(compared, ret)); ok {
			j.add(gates.RuleSpecialCased, f.Path, a.N, "code special-cases a test's inputs and returns its expected value: %s (the test: %s: %s)",
				excerpt(a.Text), file, excerpt(line))
		}
	}
}

func specific(lit string) bool { return !slices.Contains(trivialLiterals, lit) }

// literalValue is a literal as compared across languages: a string's content, a number as written.
func literalValue(tok string) string {
	if len(tok) >= 2 && (tok[0] == '"' || tok[0] == '\'') {
		return tok[1 : len(tok)-1]
	}
	return tok
}

func comparedLiterals(cond string) []string {
	var out []string
	for _, m := range comparedLit.FindAllStringSubmatch(cond, -1) {
		out = append(out, literalValue(m[1]+m[2]))
	}
	return out
}

// returnedLiteral is the literal returned on the condition's line or the next.
func returnedLiteral(rest, next string) string {
	for _, s := range []string{rest, next} {
		if m := returnLit.FindStringSubmatch(s); m != nil {
			return literalValue(m[1])
		}
	}
	return ""
}

// testLineWith finds a line of a test beside code file p that holds every literal.
func (j *judge) testLineWith(p string, lits []string) (line, file string, ok bool) {
	for _, tf := range j.testsBeside(p) {
		for _, data := range j.testTexts(tf) {
			for _, line := range splitLines(data) {
				if holdsAll(line, lits) {
					return line, tf, true
				}
			}
		}
	}
	return "", "", false
}

func holdsAll(line string, lits []string) bool {
	var have []string
	for _, tok := range literalToken.get().FindAllString(line, -1) {
		have = append(have, literalValue(tok))
	}
	for _, l := range lits {
		if !slices.Contains(have, l) {
			return false
		}
	}
	return true
}

// testTexts are a test file's contents, as it is now and at the base.
func (j *judge) testTexts(p string) [][]byte {
	var out [][]byte
	if data, ok := j.ch.New(p); ok {
		out = append(out, data)
	}
	if data, ok := j.ch.Old(p); ok {
		out = append(out, data)
	}
	return out
}

// testsBeside are the test files that may test code file p: the change's own, and those in its
// directory and the usual test directories near it.
func (j *judge) testsBeside(p string) []string {
	var out []string
	for _, f := range j.files {
		if isTestFile(f.Path) {
			out = append(out, f.Path)
		}
	}
	lister, ok := j.ch.(testLister)
	if !ok {
		return out
	}
	dir := path.Dir(p)
	parent := path.Dir(dir)
	for _, d := range []string{dir, dir + "/__tests__", dir + "/test", dir + "/tests", parent + "/test", parent + "/tests", parent + "/__tests__", "test", "tests"} {
		for _, tf := range lister.TestFiles(path.Clean(d)) {
			if !slices.Contains(out, tf) && len(out) < maxListedTests {
				out = append(out, tf)
			}
		}
	}
	return out
}
