package census

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Digests are the digests of tests' bodies, read by the caller from the test files at the base
// and now, so that Compare follows a test renamed or moved with its body (rule 1). A test is
// looked up by where it lives and its name: for Go the package's directory and the name go test
// reports (TestSum, and a table case's TestSum/empty); for the others the test file and the
// test's title (its last name, without its describe blocks).
//
// A body is normalised before it is hashed: whitespace and comments go, and the test's own name
// (or a case's title) is replaced, so that a rename alone keeps the digest. Two tests of one key
// (the same title in two describe blocks of one file) have none: neither can be told apart.
type Digests map[string]string

// ambiguous marks a key two tests share.
const ambiguous = "?"

// goDir marks the keys of Go tests, whose place is a directory matched against an import path;
// goFile the keys of the files Go tests live in, which go test does not name.
const (
	goDir  = "go\x01"
	goFile = "gofile\x01"
)

func (d Digests) put(place, name, digest string) {
	k := key(place, name)
	if old, ok := d[k]; ok && old != digest {
		d[k] = ambiguous
		return
	}
	d[k] = digest
}

func bodyDigest(kind string, tokens []string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + strings.Join(tokens, "\x00")))
	return kind + ":" + hex.EncodeToString(sum[:12])
}

// AddGo reads a Go test file (file is its path from the root, src its bytes) for the digests of
// its Test functions and of their table cases. A file that does not parse adds nothing.
func (d Digests) AddGo(file string, src []byte) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	place := goDir + path.Dir(file)
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
			continue
		}
		name := fn.Name.Name
		body := slice(fset, src, fn.Body)
		d.put(place, name, bodyDigest("go", goTokens(body, name, "")))
		d.put(goFile+path.Dir(file), name, file)
		d.addGoCases(fset, src, place, name, fn.Body)
	}
}

// addGoCases adds the digests of a test's table cases: each element of a slice or map literal
// of composite literals is a case, found under each string it holds (the case's title as t.Run
// names it, spaces made underscores) with that string left out of its digest, and, when the
// test has one such table, under its index as go test names untitled cases (#00, #01) with its
// empty strings left out. A case's digest is its other fields': a title reworded, given or
// taken keeps it.
func (d Digests) addGoCases(fset *token.FileSet, src []byte, place, test string, body *ast.BlockStmt) {
	tables := 0
	var cases []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isTable(lit) {
			return true
		}
		tables++
		cases = lit.Elts
		for _, e := range lit.Elts {
			for _, s := range caseStrings(e) {
				if title, err := strconv.Unquote(s.Value); err == nil && title != "" {
					d.put(place, test+"/"+subtestName(title), caseDigest(fset, src, e, s))
				}
			}
		}
		return false
	})
	if tables != 1 {
		return
	}
	for i, e := range cases {
		d.put(place, fmt.Sprintf("%s/#%02d", test, i), caseDigest(fset, src, e, nil))
	}
}

// caseDigest is a case's digest: its fields' tokens (a map's key among them), but the field
// whose value is title, or, without a title, the fields that are empty strings.
func caseDigest(fset *token.FileSet, src []byte, e ast.Expr, title *ast.BasicLit) string {
	var tokens []string
	for _, f := range caseFields(e) {
		v := f
		if kv, ok := f.(*ast.KeyValueExpr); ok {
			v = kv.Value
		}
		b, isString := v.(*ast.BasicLit)
		if title != nil && isString && b == title || title == nil && isString && b.Kind == token.STRING && (b.Value == `""` || b.Value == "``") {
			continue
		}
		tokens = append(append(tokens, goTokens(slice(fset, src, f), "", "")...), ",")
	}
	return bodyDigest("case", tokens)
}

// caseFields are a case's own fields: a map case's key, then its value's elements.
func caseFields(e ast.Expr) []ast.Expr {
	var out []ast.Expr
	if kv, ok := e.(*ast.KeyValueExpr); ok {
		out = append(out, kv.Key)
		e = kv.Value
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		out = append(out, lit.Elts...)
	}
	return out
}

// isTable says whether a composite literal is a slice, array or map whose elements are
// composite literals: a table of cases.
func isTable(lit *ast.CompositeLit) bool {
	switch lit.Type.(type) {
	case *ast.ArrayType, *ast.MapType:
	default:
		return false
	}
	if len(lit.Elts) == 0 {
		return false
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		if _, ok := e.(*ast.CompositeLit); !ok {
			return false
		}
	}
	return true
}

// caseStrings are the string literals a case holds as its own fields (not nested deeper).
func caseStrings(e ast.Expr) []*ast.BasicLit {
	var out []*ast.BasicLit
	for _, x := range caseFields(e) {
		if kv, ok := x.(*ast.KeyValueExpr); ok {
			x = kv.Value
		}
		if b, ok := x.(*ast.BasicLit); ok && b.Kind == token.STRING {
			out = append(out, b)
		}
	}
	return out
}

// subtestName is the name go test gives a subtest titled s: spaces become underscores.
func subtestName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return '_'
		}
		return r
	}, s)
}

func slice(fset *token.FileSet, src []byte, n ast.Node) []byte {
	from, to := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
	if from < 0 || to > len(src) || from > to {
		return nil
	}
	return src[from:to]
}

// goTokens is Go source as its tokens, comments left out: the test's own name, where it occurs
// in an identifier or a string, becomes "_", and so does the one string literal title is.
func goTokens(src []byte, name, title string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		switch {
		case tok == token.SEMICOLON && lit == "\n":
			continue // an inserted semicolon: where lines break is layout
		case title != "" && tok == token.STRING && lit == title:
			lit = "_"
		case name != "" && lit != "":
			lit = strings.ReplaceAll(lit, name, "_")
		case lit == "":
			lit = tok.String()
		}
		out = append(out, lit)
	}
}

// jsTestCall finds a test's call in JavaScript or TypeScript: it or test, with a modifier, and
// its title as a literal string.
var jsTestCall = regexp.MustCompile("\\b(?:it|test)(?:\\.(?:concurrent|skip|only|fails|sequential))*\\s*\\(\\s*(?:\"((?:[^\"\\\\\\n]|\\\\.)*)\"|'((?:[^'\\\\\\n]|\\\\.)*)'|`((?:[^`\\\\$]|\\\\.)*)`)\\s*,")

// maxJSTests bounds the tests read from one JavaScript or TypeScript file.
const maxJSTests = 10000

// AddJS reads a JavaScript or TypeScript test file for the digests of its tests, by title: the
// text of the call after its title up to its closing parenthesis, whitespace and comments left
// out and the title replaced. Only titles written as one literal string are read.
//
// The calls' texts are read within 4 times the file's bytes in all (calls that never close would
// each read to the end of the file): past that, the file's remaining tests have no digest.
func (d Digests) AddJS(file string, src []byte) {
	budget := 4*len(src) + 1<<16
	for _, m := range jsTestCall.FindAllSubmatchIndex(src, maxJSTests) {
		title := ""
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				title = string(src[m[2*g]:m[2*g+1]])
			}
		}
		body := callRest(src[m[1]:])
		if budget -= len(body); budget < 0 {
			return
		}
		d.put(file, title, bodyDigest("js", []string{strings.ReplaceAll(jsCompact(body), jsCompact([]byte(title)), "_")}))
	}
}

// callRest is the text of a call from after its first argument to the parenthesis that closes
// it (or the end of the file), strings and comments skipped as they are read.
func callRest(src []byte) []byte {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return src[:i]
			}
			depth--
		case '"', '\'', '`':
			i = skipString(src, i)
		case '/':
			i = skipComment(src, i)
		}
	}
	return src
}

// skipString is the index of the quote that closes the string opened at i.
func skipString(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return j
			}
		}
	}
	return len(src)
}

// skipComment is the index of a comment's last byte when one starts at i, else i.
func skipComment(src []byte, i int) int {
	if i+1 >= len(src) {
		return i
	}
	switch src[i+1] {
	case '/':
		if end := strings.IndexByte(string(src[i:]), '\n'); end >= 0 {
			return i + end
		}
		return len(src)
	case '*':
		if end := strings.Index(string(src[i+2:]), "*/"); end >= 0 {
			return i + 2 + end + 1
		}
		return len(src)
	}
	return i
}

// jsCompact is JavaScript text without its whitespace, comments and semicolons (a formatter's
// choices), strings kept as written.
func jsCompact(src []byte) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"' || c == '\'' || c == '`':
			j := min(skipString(src, i), len(src)-1)
			b.Write(src[i : j+1])
			i = j
		case c == '/' && skipComment(src, i) != i:
			i = skipComment(src, i)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// digestOf is a test's digest as d knows it, "" when not known: a Go test by its package's
// directory (the longest of d's directories its import path ends with, else the root) and its
// name; another by its file and its title, then its last name.
func (d Digests) digestOf(t *Test, goDirs []string) string {
	var v string
	if t.File != "" {
		v = d[key(t.File, t.Name)]
		if i := strings.LastIndex(t.Name, " > "); v == "" && i >= 0 {
			v = d[key(t.File, t.Name[i+3:])]
		}
	} else if dir, ok := goDirOf(t.Suite, goDirs); ok {
		v = d[key(goDir+dir, t.Name)]
	}
	if v == ambiguous {
		return ""
	}
	return v
}

// goDirOf is the directory among dirs an import path names: the longest one it ends with, else
// the root's.
func goDirOf(suite string, dirs []string) (string, bool) {
	best, root := "", false
	for _, dir := range dirs {
		if dir == "." {
			root = true
			continue
		}
		if (suite == dir || strings.HasSuffix(suite, "/"+dir)) && len(dir) > len(best) {
			best = dir
		}
	}
	if best != "" {
		return best, true
	}
	return ".", root
}

// goDirs are the Go directories d holds digests of.
func (d Digests) goDirs() []string {
	seen := map[string]bool{}
	var out []string
	for k := range d {
		place, _, _ := strings.Cut(k, "\x00")
		if dir, ok := strings.CutPrefix(place, goDir); ok && !seen[dir] {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	return out
}

// goFileOf is the file a Go test lives in as d knows it, "" when not known.
func (d Digests) goFileOf(t *Test, goDirs []string) string {
	dir, ok := goDirOf(t.Suite, goDirs)
	if !ok {
		return ""
	}
	if f := d[key(goFile+dir, t.Name)]; f != ambiguous {
		return f
	}
	return ""
}

// withDigests is c with each test's digest filled from d where the runner gave none.
func withDigests(c Census, d Digests) Census {
	if len(d) == 0 {
		return c
	}
	dirs := d.goDirs()
	tests := make([]Test, len(c.Tests))
	copy(tests, c.Tests)
	for i := range tests {
		if tests[i].Digest == "" {
			tests[i].Digest = d.digestOf(&tests[i], dirs)
		}
	}
	c.Tests = tests
	return c
}

// WithGoFiles is c with each Go test's file filled from d, the digests of the source c ran
// (see withGoFiles).
func WithGoFiles(c Census, d Digests) Census { return withGoFiles(c, d) }

// withGoFiles is the base's census with each Go test's file filled from the base's source where
// the runner named none (go test never does), subtests by their test's: so that a test file
// deleted together with its code takes its tests with it, and a finding names the file.
func withGoFiles(c Census, d Digests) Census {
	if len(d) == 0 {
		return c
	}
	c.Tests = slices.Clone(c.Tests)
	dirs := d.goDirs()
	for i := range c.Tests {
		t := &c.Tests[i]
		if t.File != "" {
			continue
		}
		root := *t
		root.Name, _, _ = strings.Cut(t.Name, "/")
		t.File = d.goFileOf(&root, dirs)
	}
	return c
}
