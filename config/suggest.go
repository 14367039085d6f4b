package config

import (
	"fmt"

	"github.com/gauntlet-dev/gauntlet/internal/suggest"
)

// suggestion returns ` (did you mean "x"?)` for the candidate got looks like a typo of, else "".
func suggestion(got string, candidates []string) string {
	best := suggest.Closest(got, candidates)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
