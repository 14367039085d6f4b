package integrity

import (
	"regexp"
	"testing"
)

// Patterns compile on first use, so a broken one would only show when a change hit it.
func TestEveryPatternCompiles(t *testing.T) {
	if len(patterns) < 25 {
		t.Fatalf("only %d patterns registered; the package's patterns are meant to be lazy", len(patterns))
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p.src); err != nil {
			t.Errorf("%q: %v", p.src, err)
		}
	}
}
