package config

import (
	"fmt"
	"strings"
)

// suggestion returns ` (did you mean "x"?)` for the closest candidate when it looks like a typo
// of it (a small edit distance) or a shortened or lengthened form ("warning" for "warn"), else "".
func suggestion(got string, candidates []string) string {
	limit := 2
	if len([]rune(got)) <= 4 {
		limit = 1
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(got, c)
		if d == 0 || (d > limit && !sharesPrefix(got, c)) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func sharesPrefix(a, b string) bool {
	const minPrefix = 3
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= minPrefix && strings.HasPrefix(long, short)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
