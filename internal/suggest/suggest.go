// Package suggest finds what a misspelt word meant among the words that were possible: a config
// key, a gate's name, a command line's flag.
package suggest

import "strings"

// Closest returns the candidate that got looks like a typo of (a small edit distance) or a
// shortened or lengthened form of ("warning" for "warn"), the closest first; "" when none does.
func Closest(got string, candidates []string) string {
	limit := typoLimit(got)
	best, bestDist := "", -1
	for _, c := range candidates {
		d := EditDistance(got, c)
		if !isSuggestion(got, c, d, limit) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// typoLimit is the most edits a typo of got may have: one in a short word, two otherwise.
func typoLimit(got string) int {
	if len([]rune(got)) <= 4 {
		return 1
	}
	return 2
}

// isSuggestion reports whether c, d edits from got, is worth suggesting: not got itself, and
// within the typo limit or a shortened or lengthened form of it.
func isSuggestion(got, c string, d, limit int) bool {
	return d != 0 && (d <= limit || sharesPrefix(got, c))
}

func sharesPrefix(a, b string) bool {
	const minPrefix = 3
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= minPrefix && strings.HasPrefix(long, short)
}

// EditDistance counts the insertions, deletions, substitutions and swaps of two neighbouring
// letters that turn a into b (the optimal string alignment distance): a swap is the commonest
// typo ("jsno", "fromat"), one edit, not two.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	before := make([]int, len(rb)+1) // row i-2, for swaps
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cur[j] = editCell(ra, rb, i, j, before, prev, cur)
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(rb)]
}

// editCell is the distance between ra[:i] and rb[:j], given the rows for i-2 (before) and i-1
// (prev) and row i up to j-1 (cur).
func editCell(ra, rb []rune, i, j int, before, prev, cur []int) int {
	cost := 1
	if ra[i-1] == rb[j-1] {
		cost = 0
	}
	d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
	if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
		d = min(d, before[j-2]+1)
	}
	return d
}
