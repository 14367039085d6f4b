package report

import (
	"regexp"
	"strings"
)

// escapeSequence matches terminal escape sequences: CSI (colour, cursor movement, clearing), the
// string kinds OSC, DCS, SOS, PM and APC (titles, hyperlinks; unterminated ones end at the line)
// and the short ESC forms. Gate output is
// full of them, and replayed into a summary they would recolour or even erase it.
var escapeSequence = regexp.MustCompile(`\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[ -/]*[0-~]?)`)

// cleanText makes gate-provided text safe to print: valid UTF-8, no escape sequences (except
// colour, when keepColour), no control characters but tab and newline. A carriage return inside a
// line is what progress bars use to overwrite themselves, so only the text after the last one is
// kept, as a terminal would show it.
func cleanText(s string, keepColour bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = escapeSequence.ReplaceAllStringFunc(s, func(seq string) string {
		if keepColour && strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m") {
			return seq
		}
		return ""
	})
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if cr := strings.LastIndexByte(line, '\r'); cr >= 0 {
			line = line[cr+1:]
		}
		lines[i] = strings.Map(dropControl(keepColour), line)
	}
	return strings.Join(lines, "\n")
}

func dropControl(keepEscape bool) func(rune) rune {
	return func(r rune) rune {
		switch {
		case r == '\t':
			return r
		case r == 0x1b && keepEscape:
			return r // only kept colour sequences still contain one
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return -1
		default:
			return r
		}
	}
}

// cleanLine is cleanText for fields shown on one line, such as a reason.
func cleanLine(s string) string {
	return strings.Join(strings.Fields(cleanText(s, false)), " ")
}

// xmlText removes what XML 1.0 cannot carry at all, even escaped: control characters, invalid
// UTF-8, U+FFFE and U+FFFF. encoding/xml escapes the rest.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff {
			return r
		}
		return -1
	}, cleanText(s, false))
}
