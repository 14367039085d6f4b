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
	exercised := map[string]bool{}
	for name, f := range now.Files {
		if len(f.CoveredLines()) > 0 {
			exercised[path.Dir(name)] = true
		}
	}
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
