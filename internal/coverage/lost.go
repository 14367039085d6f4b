package coverage

import (
	"slices"
	"strconv"
)

// Finding is coverage the change lost: lines From to To (1-based, in the file as it is now) of
// File, or, with From and To 0, the whole file.
type Finding struct {
	File     string
	From, To int
	Message  string
}

// Untouched maps a line of file as it is now to its line at the base; ok is false for a line the
// change added or modified, for a line past the file's end, and for every line of a file that
// does not exist now.
type Untouched func(file string, nowLine int) (baseLine int, ok bool)

// Lost compares the coverage now with the coverage at the base. A finding is:
//
//   - a run of lines the change did not touch, covered at the base and instrumented but not
//     covered now; a run goes on across lines that are not instrumented now (blank lines,
//     comments) and ends at an instrumented line that is not lost;
//   - a file with a covered line at the base, that exists now (untouched maps a line of it) and
//     has no coverage data at all now: its tests no longer load it.
//
// Quiet: lines the change added or modified (never covered by the base's tests, or judged by
// the tests that come with them), lines no longer instrumented (deleted code), files deleted,
// lines not covered at the base. A file is compared under its own path: a renamed file is not
// followed.
//
// An incomplete coverage now (Complete false: a bound cut it, or it ended early) is not compared:
// a line whose covering record was cut would look lost. The caller shows its notes instead.
func Lost(base, now Coverage, untouched Untouched) []Finding {
	if !now.Complete {
		return nil
	}
	var out []Finding
	for _, name := range sortedNames(base.Files) {
		bf := base.Files[name]
		nf, present := now.Files[name]
		if !present {
			if f, ok := fileLost(name, bf, untouched); ok {
				out = append(out, f)
			}
			continue
		}
		out = append(out, linesLost(name, bf, nf, untouched)...)
	}
	return out
}

func linesLost(name string, bf, nf *File, untouched Untouched) []Finding {
	var out []Finding
	from, to := 0, 0
	for _, l := range nf.Lines() {
		if !lineLost(name, l, bf, nf, untouched) {
			out = appendRange(out, name, from, to)
			from, to = 0, 0
			continue
		}
		if from == 0 {
			from = l
		}
		to = l
	}
	return appendRange(out, name, from, to)
}

// lineLost says whether line l of file name, not covered now, was covered at the base.
func lineLost(name string, l int, bf, nf *File, untouched Untouched) bool {
	if nf.Covered(l) {
		return false
	}
	b, ok := untouched(name, l)
	return ok && bf.Covered(b)
}

// appendRange appends the finding on the lines from-to lost, when there is a range (from not 0).
func appendRange(out []Finding, name string, from, to int) []Finding {
	if from == 0 {
		return out
	}
	return append(out, rangeFinding(name, from, to))
}

// fileLost reports a file covered at the base, absent from the coverage now, when it still
// exists: untouched maps one of its lines.
func fileLost(name string, bf *File, untouched Untouched) (Finding, bool) {
	covered := bf.CoveredLines()
	if len(covered) == 0 {
		return Finding{}, false
	}
	exists := false
	for _, l := range covered {
		if _, ok := untouched(name, l); ok {
			exists = true
			break
		}
	}
	if !exists {
		return Finding{}, false
	}
	n := strconv.Itoa(len(covered)) + " lines"
	if len(covered) == 1 {
		n = "1 line"
	}
	return Finding{File: name, Message: name + " had " + n + " covered at the base and has no coverage at all now"}, true
}

func rangeFinding(name string, from, to int) Finding {
	if from == to {
		return Finding{File: name, From: from, To: to,
			Message: name + ":" + strconv.Itoa(from) + " was covered at the base and is not now"}
	}
	return Finding{File: name, From: from, To: to,
		Message: name + ":" + strconv.Itoa(from) + "-" + strconv.Itoa(to) + " were covered at the base and are not now"}
}

func sortedNames(m map[string]*File) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
