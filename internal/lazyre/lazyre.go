// Package lazyre is a regular expression compiled on first use: a package-level pattern costs
// nothing at start-up, and every gauntlet call starts (the stop hook runs at every stop of an
// agent) whether or not it needs the pattern.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp has the methods of *regexp.Regexp that gauntlet uses, so that a pattern declared with
// New reads like one compiled with regexp.MustCompile.
type Regexp struct {
	expr string
	get  func() *regexp.Regexp
}

// New declares a pattern; it panics on first use if expr does not compile, as MustCompile would
// at start-up (the tests use every pattern).
func New(expr string) *Regexp {
	return &Regexp{expr: expr, get: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (r *Regexp) Regexp() *regexp.Regexp                 { return r.get() }
func (r *Regexp) String() string                         { return r.expr }
func (r *Regexp) MatchString(s string) bool              { return r.get().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                    { return r.get().Match(b) }
func (r *Regexp) FindString(s string) string             { return r.get().FindString(s) }
func (r *Regexp) FindStringSubmatch(s string) []string   { return r.get().FindStringSubmatch(s) }
func (r *Regexp) FindStringIndex(s string) []int         { return r.get().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.get().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string { return r.get().FindAllString(s, n) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.get().ReplaceAllString(src, repl)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.get().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.get().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) SubexpIndex(name string) int    { return r.get().SubexpIndex(name) }
func (r *Regexp) Split(s string, n int) []string { return r.get().Split(s, n) }
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.get().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.get().FindAllStringIndex(s, n) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte             { return r.get().FindSubmatch(b) }
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.get().ReplaceAllLiteralString(src, repl)
}
