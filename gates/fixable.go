package gates

import (
	"regexp"
	"strings"
	"sync"
)

// formattingRules are the findings a formatter's fixer rewrites: a file listed as not formatted
// (gofmt -l, prettier --list-different) and the formatting linters of golangci-lint, ESLint and
// ruff.
var formattingRules = map[string]bool{
	"format": true, "gofmt": true, "gofumpt": true, "goimports": true, "gci": true, "golines": true,
	"prettier/prettier": true, "I001": true,
}

// formatterWords is a formatter's check, or its fixer, in a command or a gate's name.
var formatterWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s/;&|(-])(?:gofmt|gofumpt|goimports|prettier|black|isort|rustfmt|shfmt|clang-format|dprint|fmt|format|formatter)(?:$|[\s;&|)-])`)
})

// FixerMends reports whether `gauntlet fix` is worth offering for a failed gate: it has a fixer,
// it failed on its own (no timeout, no environment cause), and what it found is formatting its
// fixer rewrites. A type error, an ineffectual assignment or a failing test is not, whatever
// fixer the gate has. A gate without findings counts when it is a formatter (its name, its
// command or its fixer says so: `fmt`, `prettier --check`, `ruff format --check`).
func FixerMends(r Result) bool {
	if r.Fix == "" || r.Status != StatusFail || r.TimedOut || r.Cause != nil {
		return false
	}
	if len(r.Findings) > 0 {
		for _, f := range r.Findings {
			if !formattingRules[f.Rule] && !strings.EqualFold(f.Message, "not formatted") {
				return false
			}
		}
		return true
	}
	for _, s := range []string{r.Name, r.Command, r.Fix} {
		if formatterWords().MatchString(strings.ToLower(s)) {
			return true
		}
	}
	return false
}
