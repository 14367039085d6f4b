package integrity

import (
	"path"
	"regexp"
	"runtime"
	"strings"
)

// A Python skip whose condition does not hold where the gates run (`skipif(sys.platform ==
// "win32")` on Linux) lets the test run here, as a Go skip under such a guard does. The condition
// is told from sys.platform, platform.system() and os.name compared with strings, their
// combinations, and the names a module sets to such a condition once, at its top level (`WIN =
// sys.platform.startswith("win")`, imported by the tests); anything else cannot be told here.

var (
	pyAssign    = lazy(`^(\s*)([A-Za-z_]\w*)\s*(?::[^=]+)?=([^=].*)$`)
	pyFromImpor = lazy(`^from\s+(\.*[\w.]*)\s+import\s+\(?([\w\s,]+?)\)?\s*(?:#.*)?$`)
	pyIdent     = lazy(`^[A-Za-z_]\w*$`)
	pyCompare   = lazy(`^(sys\.platform|platform\.system\(\)|os\.name)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)')$`)
	pyCompareR  = lazy(`^(?:"([^"]*)"|'([^']*)')\s*(==|!=)\s*(sys\.platform|platform\.system\(\)|os\.name)$`)
	pyStarts    = lazy(`^sys\.platform\.startswith\(\s*\(?((?:\s*(?:"[^"]*"|'[^']*')\s*,?)+)\)?\s*\)$`)
	pyStrLit    = lazy(`"([^"]*)"|'([^']*)'`)
	pyKeyword   = lazy(`^\w+\s*=[^=]`)
)

// pySkipElsewhere says whether the Python skip on the line applies only where the gates do not
// run: a skipif (skipIf, xfail with a condition) whose condition is false here, a skipUnless whose
// condition is true here, or a skip call under an `if` whose condition is false here.
func (j *judge) pySkipElsewhere(file string, lines []string, line int) bool {
	cond, skipsWhen := pySkipCondition(lines, line)
	if cond == "" {
		return false
	}
	v := j.pyTruth(file, cond, 0)
	return skipsWhen && v == no || !skipsWhen && v == yes
}

// pySkipCondition is the condition a skip on the line depends on, and whether it skips when the
// condition holds (skipUnless: when it does not); "" when it has none that can be read.
func pySkipCondition(lines []string, line int) (cond string, skipsWhen bool) {
	if t := strings.TrimSpace(lines[line-1]); strings.HasPrefix(t, "@") {
		return pyDecoratorCondition(t, lines, line)
	}
	return pyGuardAbove(lines, line), true
}

// pyDecoratorCondition reads a skip decorator's condition: its first argument, which may go on
// over the lines below.
func pyDecoratorCondition(t string, lines []string, line int) (cond string, skipsWhen bool) {
	skipsWhen = true
	switch {
	case strings.Contains(t, "skipUnless"):
		skipsWhen = false
	case strings.Contains(t, "skipif"), strings.Contains(t, "skipIf"), strings.Contains(t, "xfail"):
	default:
		return "", true
	}
	open := strings.IndexByte(t, '(')
	if open < 0 {
		return "", true
	}
	return pyFirstArg(t[open+1:] + "\n" + strings.Join(lines[line:min(len(lines), line+20)], "\n")), skipsWhen
}

// pyGuardAbove is the condition of the if (or elif) the line is directly under; "" when the
// statement it is under is none.
func pyGuardAbove(lines []string, line int) string {
	indent := indentOf(lines[line-1])
	for k := line - 2; k >= 0; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "#") || indentOf(lines[k]) >= indent {
			continue
		}
		return pyIfCondition(t)
	}
	return ""
}

// pyIfCondition is the condition of an if or elif line; "" when it is none.
func pyIfCondition(t string) string {
	cond := ""
	for _, kw := range []string{"if ", "elif "} {
		if strings.HasPrefix(t, kw) && strings.HasSuffix(t, ":") {
			cond = strings.TrimSuffix(strings.TrimPrefix(t, kw), ":")
		}
	}
	return cond
}

// pyFirstArg is the first positional argument of a call whose text starts after its "(": "" when
// there is none (only keywords, such as xfail(reason=...)).
func pyFirstArg(s string) string {
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			i, quote = pyInQuote(s, i, quote)
			continue
		}
		closes := strings.IndexByte(")]}", c) >= 0
		switch {
		case c == '"' || c == '\'':
			quote = c
		case strings.IndexByte("([{", c) >= 0:
			depth++
		case closes && depth > 0:
			depth--
		case closes || c == ',' && depth == 0:
			return pyPositional(s[:i])
		}
	}
	return ""
}

// pyInQuote reads s[i] inside a string: past an escaped character, or out of the string at its
// closing quote.
func pyInQuote(s string, i int, quote byte) (int, byte) {
	switch s[i] {
	case '\\':
		return i + 1, quote
	case quote:
		return i, 0
	}
	return i, quote
}

func pyPositional(arg string) string {
	arg = strings.TrimSpace(arg)
	if rest, ok := strings.CutPrefix(arg, "condition="); ok {
		return strings.TrimSpace(rest)
	}
	if pyKeyword.MatchString(arg) {
		return ""
	}
	return arg
}

// pyTruth is a condition's value where the gates run, when it can be told.
func (j *judge) pyTruth(file, expr string, depth int) truth {
	e := pyUnwrapped(expr)
	for _, c := range pyConnectives {
		if parts := pySplit(e, c.sep); len(parts) > 1 {
			v := c.identity
			for _, p := range parts {
				v = c.combine(v, j.pyTruth(file, p, depth))
			}
			return v
		}
	}
	if rest, ok := strings.CutPrefix(e, "not "); ok {
		return j.pyTruth(file, rest, depth).not()
	}
	if v, ok := pyPlatformTruth(e); ok {
		return v
	}
	if pyIdent.MatchString(e) && depth < 4 {
		if at, def, ok := j.pyDefinition(file, e, depth); ok {
			return j.pyTruth(at, def, depth+1)
		}
	}
	return unknown
}

// pyConnectives are the operators that join conditions, loosest first, with the value that
// joins as nothing and how two values join.
var pyConnectives = []struct {
	sep      string
	identity truth
	combine  func(a, b truth) truth
}{
	{" or ", no, combineOr},
	{" and ", yes, combineAnd},
}

// pyUnwrapped is an expression with its spaces normalised and its outer parentheses removed.
func pyUnwrapped(expr string) string {
	e := strings.Join(strings.Fields(expr), " ")
	for len(e) >= 2 && e[0] == '(' && e[len(e)-1] == ')' && balanced(e[1:len(e)-1]) {
		e = strings.TrimSpace(e[1 : len(e)-1])
	}
	return e
}

// pyPlatformTruth tells a literal or a test of the platform: True, False, a comparison of
// sys.platform, platform.system() or os.name with a string, sys.platform.startswith(...).
func pyPlatformTruth(e string) (truth, bool) {
	switch e {
	case "True":
		return yes, true
	case "False":
		return no, true
	}
	if m := pyCompare.FindStringSubmatch(e); m != nil {
		return pyCompared(m[1], m[2], m[3]+m[4]), true
	}
	if m := pyCompareR.FindStringSubmatch(e); m != nil {
		return pyCompared(m[4], m[3], m[1]+m[2]), true
	}
	if m := pyStarts.FindStringSubmatch(e); m != nil {
		return pyStartsWith(m[1]), true
	}
	return unknown, false
}

// pyStartsWith is sys.platform.startswith's value for its string arguments.
func pyStartsWith(args string) truth {
	v := no
	for _, lit := range pyStrLit.FindAllStringSubmatch(args, -1) {
		if strings.HasPrefix(pyPlatform("sys.platform"), lit[1]+lit[2]) {
			v = yes
		}
	}
	return v
}

func pyCompared(what, op, want string) truth {
	have := pyPlatform(what)
	if have == "" {
		return unknown
	}
	v := map[bool]truth{true: yes, false: no}[have == want]
	if op == "!=" {
		return v.not()
	}
	return v
}

// pyPlatform is what Python says of the system the gates run on: sys.platform,
// platform.system(), os.name; "" when it cannot be told from here.
func pyPlatform(what string) string {
	switch what {
	case "sys.platform":
		return map[string]string{"windows": "win32", "linux": "linux", "darwin": "darwin"}[runtime.GOOS]
	case "platform.system()":
		return map[string]string{"windows": "Windows", "linux": "Linux", "darwin": "Darwin"}[runtime.GOOS]
	case "os.name":
		return map[bool]string{true: "nt", false: "posix"}[runtime.GOOS == "windows"]
	}
	return ""
}

// pyDefinition finds what a name is set to: in the file, by one assignment at its top level and
// none elsewhere in it; else in the module the file imports it from (`from pkg.mod import NAME`),
// looked for from the file's directory up to the project's root, plain and under src/.
func (j *judge) pyDefinition(file, name string, depth int) (at, def string, ok bool) {
	if depth > 4 {
		return "", "", false // modules importing each other
	}
	data, found := j.ch.New(file)
	if !found {
		return "", "", false
	}
	lines := splitLines(data)
	top, once := pyTopAssignment(lines, name)
	if !once {
		return "", "", false
	}
	if top != "" {
		return file, top, true
	}
	return j.pyImported(file, lines, name, depth)
}

// pyTopAssignment is the value a module sets a name to at its top level ("" when it does not),
// and whether that is the only binding of the name that counts: false when the name is set again,
// or in a way not read here.
func pyTopAssignment(lines []string, name string) (top string, once bool) {
	q := regexp.QuoteMeta(name)
	binds := regexp.MustCompile(`\b` + q + `\s*(?:[-+*/|&^%@]|//|\*\*|>>|<<)?=(?:[^=]|$)|\bglobal\b[^#]*\b` + q + `\b|` +
		`\bfor\s[^#]*\b` + q + `\b[^#]*\bin\b|\bas\s+` + q + `\b|\b(?:def|class)\s+` + q + `\b|["']` + q + `["']`)
	sets := 0
	for k, l := range lines {
		if !binds.MatchString(l) {
			continue
		}
		switch m := pyAssign.FindStringSubmatch(l); {
		case m != nil && m[2] == name && m[1] == "":
			top = strings.TrimSpace(m[3])
			sets++
		case !strings.Contains(l, "global") && pyInFunction(lines, k):
			// A function's own variable, or a patch made when a test runs: skipif's condition
			// was read when the module was imported.
		default:
			sets += 2 // set again somewhere, or in a way not read here
		}
	}
	return top, sets <= 1
}

// pyImported follows the import a file takes a name from to the module that sets it.
func (j *judge) pyImported(file string, lines []string, name string, depth int) (at, def string, ok bool) {
	for _, l := range lines {
		m := pyFromImpor.FindStringSubmatch(l)
		if m == nil || !pyImports(m[2], name) {
			continue
		}
		for _, mod := range pyModuleFiles(file, m[1]) {
			if _, found := j.ch.New(mod); found {
				return j.pyDefinition(mod, name, depth+1)
			}
		}
		return "", "", false
	}
	return "", "", false
}

// pyInFunction says whether line k is in the body of a function.
func pyInFunction(lines []string, k int) bool {
	indent := indentOf(lines[k])
	for i := k - 1; i >= 0 && indent > 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") || indentOf(lines[i]) >= indent {
			continue
		}
		if pyDef.MatchString(lines[i]) {
			return true
		}
		indent = indentOf(lines[i])
	}
	return false
}

func pyImports(list, name string) bool {
	for _, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == name {
			return true
		}
	}
	return false
}

// pyModuleFiles are the files a module of an import may be, nearest first.
func pyModuleFiles(file, mod string) []string {
	dir := path.Dir(file)
	if strings.HasPrefix(mod, ".") {
		rest := strings.TrimLeft(mod, ".")
		for range len(mod) - len(rest) - 1 {
			dir = path.Dir(dir)
		}
		rel := path.Join(dir, strings.ReplaceAll(rest, ".", "/"))
		return []string{rel + ".py", path.Join(rel, "__init__.py")}
	}
	rel := strings.ReplaceAll(mod, ".", "/")
	var out []string
	for {
		for _, base := range []string{dir, path.Join(dir, "src")} {
			out = append(out, path.Join(base, rel+".py"), path.Join(base, rel, "__init__.py"))
		}
		if dir == "." || dir == "/" || dir == "" {
			return out
		}
		dir = path.Dir(dir)
	}
}

// pySplit splits an expression at sep outside parentheses and strings; with sep "" it only checks
// that the expression is whole (nil when a closing parenthesis has no opening one).
func pySplit(e, sep string) []string {
	var parts []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
			if depth < 0 {
				return nil
			}
		case sep != "" && depth == 0 && strings.HasPrefix(e[i:], sep):
			parts = append(parts, e[start:i])
			start = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(parts, e[start:])
}

func balanced(e string) bool {
	return pySplit(e, "") != nil && strings.Count(e, "(") == strings.Count(e, ")")
}

func combineAnd(a, b truth) truth {
	switch {
	case a == no || b == no:
		return no
	case a == yes && b == yes:
		return yes
	}
	return unknown
}

func combineOr(a, b truth) truth {
	switch {
	case a == yes || b == yes:
		return yes
	case a == no && b == no:
		return no
	}
	return unknown
}
