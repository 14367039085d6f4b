package coverage

import (
	"path"
	"strconv"
)

// Uncovered are the lines the change added or edited (untouched says not ok of them) that the
// tests ran none of: a run of instrumented lines not covered now, going on across lines that are
// not instrumented, ending at a covered line or one the change did not touch. Only files the
// tests exercise are read: a file whose directory (its package, for Go) has a covered line; a
// file of a package no test loads says nothing of the change's tests.
//
// An incomplete coverage (a bound cut it) is not read: a line whose record was cut would look
// uncovered.
func Uncovered(now Coverage, untouched Untouched) []Finding {
	if !now.Complete {
		return nil
	}
	exercised := exercisedDirs(now)
	var out []Finding
	for _, name := range sortedNames(now.Files) {
		if exercised[path.Dir(name)] {
			out = append(out, linesUncovered(name, now.Files[name], untouched)...)
		}
	}
	return out
}

func linesUncovered(name string, f *File, untouched Untouched) []Finding {
	var out []Finding
	from, to := 0, 0
	for _, l := range f.Lines() {
		if _, kept := untouched(name, l); kept || f.Covered(l) {
			out = appendUncovered(out, name, from, to)
			from, to = 0, 0
			continue
		}
		if from == 0 {
			from = l
		}
		to = l
	}
	return appendUncovered(out, name, from, to)
}

func appendUncovered(out []Finding, name string, from, to int) []Finding {
	if from == 0 {
		return out
	}
	where := name + ":" + strconv.Itoa(from)
	if to != from {
		where += "-" + strconv.Itoa(to)
	}
	return append(out, Finding{File: name, From: from, To: to,
		Message: where + " added or edited by the change, run by no test"})
}

// ChangeShare counts the instrumented lines the change added or edited, in the files Uncovered
// reads, and how many of them the tests ran.
func ChangeShare(now Coverage, untouched Untouched) (changed, covered int) {
	exercised := exercisedDirs(now)
	for name, f := range now.Files {
		if !exercised[path.Dir(name)] {
			continue
		}
		for _, l := range f.Lines() {
			if _, kept := untouched(name, l); !kept {
				changed++
				if f.Covered(l) {
					covered++
				}
			}
		}
	}
	return changed, covered
}

// exercisedDirs are the directories with a covered line: the packages the tests load.
func exercisedDirs(now Coverage) map[string]bool {
	out := map[string]bool{}
	for name, f := range now.Files {
		if len(f.CoveredLines()) > 0 {
			out[path.Dir(name)] = true
		}
	}
	return out
}
