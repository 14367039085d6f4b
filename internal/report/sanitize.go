package report

import (
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// xmlText removes what XML 1.0 cannot carry at all, even escaped: control characters, invalid
// UTF-8, U+FFFE and U+FFFF. encoding/xml escapes the rest.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff {
			return r
		}
		return -1
	}, termtext.Clean(s))
}
