package integrity

import (
	"regexp"
	"sync"
)

// lazyRegexp is a pattern compiled on its first use rather than when the package loads: every
// gauntlet command (the stop hook's cached answer included) loads this package, and compiling
// its patterns at start-up cost about a millisecond each time, for checks most calls never run.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// patterns lists every lazy pattern, so that a test compiles them all.
var patterns []*lazyRegexp

func lazy(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	patterns = append(patterns, l)
	return l
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool            { return l.get().MatchString(s) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
func (l *lazyRegexp) Split(s string, n int) []string       { return l.get().Split(s, n) }
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
