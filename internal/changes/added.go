package changes

import (
	"bytes"
	"strconv"
	"strings"
)

// AddedLines is the set of lines a patch adds, by root-relative path and line number in the new
// version of the file.
type AddedLines map[string]map[int]bool

// Has reports whether line of file is one the patch adds.
func (a AddedLines) Has(file string, line int) bool { return a[file][line] }

// ParseAdded reads a unified diff (as Diff produces it, possibly cut short) and returns the lines
// it adds. Hunk line counts are followed, so an added line that happens to start with "+++" is
// not mistaken for a file header.
func ParseAdded(patch []byte) AddedLines {
	added := AddedLines{}
	var file string
	var oldLeft, newLeft, newLine int
	for raw := range bytes.Lines(patch) {
		line := strings.TrimSuffix(string(raw), "\n")
		if oldLeft > 0 || newLeft > 0 {
			kind := byte(' ') // an empty line is a context line whose space an editor trimmed
			if line != "" {
				kind = line[0]
			}
			switch kind {
			case '+':
				if file != "" {
					if added[file] == nil {
						added[file] = map[int]bool{}
					}
					added[file][newLine] = true
				}
				newLine++
				newLeft--
				continue
			case '-':
				oldLeft--
				continue
			case ' ':
				newLine++
				newLeft--
				oldLeft--
				continue
			case '\\':
				continue
			}
			oldLeft, newLeft = 0, 0 // not a hunk line after all: read it as a header
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file, _ = headerPath(line)
		case strings.HasPrefix(line, "+++ "):
			file = patchLinePath(line[4:])
		case strings.HasPrefix(line, "@@ "):
			oldLeft, newLeft, newLine = hunkHeader(line)
		}
	}
	return added
}

// hunkHeader reads "@@ -a,b +c,d @@": the old and new line counts and the first new line.
func hunkHeader(line string) (oldCount, newCount, newStart int) {
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return 0, 0, 0
	}
	_, oldCount = hunkSpan(strings.TrimPrefix(fields[1], "-"))
	newStart, newCount = hunkSpan(strings.TrimPrefix(fields[2], "+"))
	return oldCount, newCount, newStart
}

// hunkSpan reads "start,count" or "start" (a count of one).
func hunkSpan(s string) (start, count int) {
	startText, countText, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(startText)
	if err != nil {
		return 0, 0
	}
	if !hasCount {
		return start, 1
	}
	count, err = strconv.Atoi(countText)
	if err != nil {
		return 0, 0
	}
	return start, count
}
