package scaffold

import (
	"slices"
	"strings"
)

// ghValue is a GitHub Actions expression's value as far as init can know it: the matrix's first
// values are known, anything else (secrets, github.*, steps.*) is not. Truthiness can be known
// when the value is not: `x && ”` is falsy whatever x is.
type ghValue struct {
	s     string
	known bool
	truth int // 1 truthy, 0 falsy, -1 unknown
}

func ghString(s string) ghValue {
	t := 0
	if s != "" {
		t = 1
	}
	return ghValue{s: s, known: true, truth: t}
}

var ghUnknown = ghValue{truth: -1}

// evalExpression evaluates the expression inside `${{ }}` with the matrix's first values: string
// literals, matrix.NAME and env.NAME (from env), ==, !=, !, &&, || and parentheses, which is what
// CI files use to pick a value per matrix entry (`matrix.group == 'store' && ” || 'sqlite'`).
// ok is false when the value depends on anything else.
func evalExpression(expr string, matrix, env map[string]string) (string, bool) {
	p := &ghParser{toks: ghTokens(expr), matrix: matrix, env: env}
	v := p.or()
	if p.bad || p.i != len(p.toks) || !v.known {
		return "", false
	}
	return v.s, true
}

type ghParser struct {
	toks        []string
	i           int
	bad         bool
	matrix, env map[string]string
}

func (p *ghParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *ghParser) or() ghValue {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		r := p.and()
		switch v.truth {
		case 1:
		case 0:
			v = r
		default:
			v = ghUnknown
			if r.truth == 1 {
				v.truth = 1
			}
		}
	}
	return v
}

func (p *ghParser) and() ghValue {
	v := p.cmp()
	for p.peek() == "&&" {
		p.i++
		r := p.cmp()
		switch v.truth {
		case 0:
		case 1:
			v = r
		default:
			v = ghUnknown
			if r.truth == 0 {
				v.truth = 0
			}
		}
	}
	return v
}

func (p *ghParser) cmp() ghValue {
	v := p.unary()
	for op := p.peek(); op == "==" || op == "!="; op = p.peek() {
		p.i++
		r := p.unary()
		if !v.known || !r.known {
			v = ghUnknown
			continue
		}
		eq := strings.EqualFold(v.s, r.s) // GitHub compares strings ignoring case
		if eq == (op == "==") {
			v = ghString("true")
		} else {
			v = ghValue{s: "false", known: true, truth: 0}
		}
	}
	return v
}

func (p *ghParser) unary() ghValue {
	if p.peek() == "!" {
		p.i++
		v := p.unary()
		switch v.truth {
		case 1:
			return ghValue{s: "false", known: true, truth: 0}
		case 0:
			return ghString("true")
		}
		return ghUnknown
	}
	return p.primary()
}

func (p *ghParser) primary() ghValue {
	t := p.peek()
	p.i++
	switch {
	case t == "(":
		return p.parenthesised()
	case strings.HasPrefix(t, "'"):
		return ghString(strings.ReplaceAll(strings.Trim(t, "'"), "''", "'"))
	case t == "true":
		return ghString("true")
	case t == "false" || t == "null":
		return ghValue{s: "", known: true, truth: 0}
	case strings.HasPrefix(t, "matrix.") || strings.HasPrefix(t, "env."):
		return p.context(t)
	case contains(ghMisplaced, t):
		p.bad = true
	}
	return ghUnknown
}

// ghMisplaced are tokens that cannot start an operand: the expression is not well formed.
var ghMisplaced = []string{"", ")", "&&", "||", "==", "!="}

// parenthesised is the value of ( expression ), after the opening parenthesis.
func (p *ghParser) parenthesised() ghValue {
	v := p.or()
	if p.peek() != ")" {
		p.bad = true
	}
	p.i++
	return v
}

// context is the value of matrix.NAME or env.NAME, when it is known: an env value that is
// itself an expression is not.
func (p *ghParser) context(t string) ghValue {
	if name, ok := strings.CutPrefix(t, "matrix."); ok {
		if v, ok := p.matrix[name]; ok {
			return ghString(v)
		}
		return ghUnknown
	}
	if v, ok := p.env[strings.TrimPrefix(t, "env.")]; ok && !strings.Contains(v, "${{") {
		return ghString(v)
	}
	return ghUnknown
}

// ghTokens splits an expression into literals, names and operators.
func ghTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		n := ghTokenLen(s[i:])
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' {
			out = append(out, s[i:i+n])
		}
		i += n
	}
	return out
}

// ghTokenLen is the length of the token s starts with (a blank is a token of one, dropped).
func ghTokenLen(s string) int {
	c := s[0]
	switch {
	case c == '\'':
		return ghStringLen(s)
	case slices.ContainsFunc(ghOperators, func(op string) bool { return strings.HasPrefix(s, op) }):
		return 2
	case strings.IndexByte(" \t\n!()", c) >= 0:
		return 1
	}
	j := strings.IndexAny(s, ghNameEnd)
	if j < 0 {
		return len(s)
	}
	return max(j, 1)
}

// ghOperators are the two-character operators; ghNameEnd the characters that end a name.
var ghOperators = []string{"&&", "||", "==", "!="}

const ghNameEnd = " \t\n'&|=!()"

// ghStringLen is the length of the string literal s starts with, its closing quote included
// (a doubled quote inside is one quote); an unclosed literal runs to the end.
func ghStringLen(s string) int {
	j := 1
	for j < len(s) {
		if s[j] != '\'' {
			j++
			continue
		}
		if j+1 < len(s) && s[j+1] == '\'' {
			j += 2
			continue
		}
		return j + 1
	}
	return len(s)
}
