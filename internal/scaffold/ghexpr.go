package scaffold

import (
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
		v := p.or()
		if p.peek() != ")" {
			p.bad = true
		}
		p.i++
		return v
	case strings.HasPrefix(t, "'"):
		return ghString(strings.ReplaceAll(strings.Trim(t, "'"), "''", "'"))
	case t == "true":
		return ghString("true")
	case t == "false" || t == "null":
		return ghValue{s: "", known: true, truth: 0}
	case strings.HasPrefix(t, "matrix."):
		if v, ok := p.matrix[strings.TrimPrefix(t, "matrix.")]; ok {
			return ghString(v)
		}
	case strings.HasPrefix(t, "env."):
		if v, ok := p.env[strings.TrimPrefix(t, "env.")]; ok && !strings.Contains(v, "${{") {
			return ghString(v)
		}
	case t == "" || t == ")" || t == "&&" || t == "||" || t == "==" || t == "!=":
		p.bad = true
	}
	return ghUnknown
}

// ghTokens splits an expression into literals, names and operators.
func ghTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			out = append(out, s[i:min(j+1, len(s))])
			i = j + 1
		case strings.HasPrefix(s[i:], "&&"), strings.HasPrefix(s[i:], "||"), strings.HasPrefix(s[i:], "=="), strings.HasPrefix(s[i:], "!="):
			out = append(out, s[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			out = append(out, string(c))
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n'&|=!()", rune(s[j])) {
				j++
			}
			if j == i {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}
