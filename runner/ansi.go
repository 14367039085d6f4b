package runner

const esc = 0x1b

// stripANSI appends s to dst without terminal escape sequences (colours, cursor moves, window
// titles, hyperlinks), so that tails and infra patterns see the text a user would read.
func stripANSI(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if s[i] != esc {
			dst = append(dst, s[i])
			i++
			continue
		}
		i = skipEscape(s, i)
	}
	return dst
}

// skipEscape returns the index just past the escape sequence starting at s[i] == ESC. A malformed
// sequence never swallows a newline, so one stray ESC cannot hide the rest of the output.
func skipEscape(s []byte, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[': // CSI: parameter and intermediate bytes, then one final byte
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			j++
		}
		return j
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: a string ended by BEL or ESC \
		for j := i + 2; j < len(s); j++ {
			switch {
			case s[j] == 0x07:
				return j + 1
			case s[j] == esc && j+1 < len(s) && s[j+1] == '\\':
				return j + 2
			case s[j] == '\n':
				return j
			}
		}
		return len(s)
	case '(', ')', '*', '+', '-', '.', '/', '#', '%': // character set and line attribute selection
		return min(i+3, len(s))
	default: // two-byte sequences such as ESC 7, ESC =, ESC c
		return i + 2
	}
}
