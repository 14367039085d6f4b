package census

import (
	"regexp"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// maxLine bounds a line the line-based readers keep (boundedio.MaxLine).
const maxLine = boundedio.MaxLine

// lazyRegexp compiles expr at first use: every gauntlet call would pay for the readers'
// expressions at start-up, most never reading a census.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
