package engine

import (
	"regexp"
	"slices"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// definitionPatterns find the name a line of code defines, in the languages whose tests the
// census reads: a test named after a function the change removed may go with it (TestParseLegacy
// with func ParseLegacy). Each pattern's first group is the name. Compiled at first use: only a
// stop that compares a census needs them.
var definitionPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]`),                                                                                 // Go func and method
		regexp.MustCompile(`^type\s+([A-Za-z_]\w*)\s`),                                                                                                        // Go type
		regexp.MustCompile(`^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(`),                                                                                      // Python def
		regexp.MustCompile(`^\s*class\s+([A-Za-z_$][\w$]*)`),                                                                                                  // Python, JS class
		regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(`),                                          // JS function
		regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)`), // JS arrow
		regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)`),                                                                   // Rust fn
	}
})

// removedNames are the names whose definition the change removed from code files it kept, and
// defines nowhere in what it added: a function moved to another file is not removed.
func removedNames(ch *snapshot.Change) []string {
	removed, added := map[string]bool{}, map[string]bool{}
	for _, f := range ch.Files {
		if f.Status == snapshot.Deleted || integrity.IsTestFile(f.Path) {
			continue // a deleted file excuses its tests already; a test file defines tests
		}
		for _, h := range f.Hunks {
			namesIn(h, removed, added)
		}
	}
	var out []string
	for n := range removed {
		if !added[n] {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// namesIn adds the names the hunk's removed lines define to removed, its added lines' to added.
func namesIn(h snapshot.Hunk, removed, added map[string]bool) {
	for _, l := range h.Lines {
		name := definedName(l.Text)
		switch {
		case name == "":
		case l.New == 0:
			removed[name] = true
		case l.Old == 0:
			added[name] = true
		}
	}
}

func definedName(line string) string {
	for _, p := range definitionPatterns() {
		if m := p.FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	return ""
}
