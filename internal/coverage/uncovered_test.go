package coverage

import (
	"reflect"
	"testing"
)

func TestUncoveredNamesTheChangesLinesNoTestRuns(t *testing.T) {
	now := Coverage{Complete: true, Files: map[string]*File{
		"calc/calc.go":   {lines: map[int]bool{3: true, 5: false, 6: false, 8: false, 10: true, 11: false}},
		"calc/old.go":    {lines: map[int]bool{2: false}},
		"other/other.go": {lines: map[int]bool{1: false, 2: false}},
	}}
	changed := map[string]map[int]bool{
		"calc/calc.go":   {5: true, 6: true, 7: true, 8: true, 10: true, 11: true},
		"other/other.go": {1: true, 2: true},
	}
	untouched := func(file string, l int) (int, bool) { return l, !changed[file][l] }
	got := Uncovered(now, untouched)
	want := []Finding{
		{File: "calc/calc.go", From: 5, To: 8, Message: "calc/calc.go:5-8 added or edited by the change, run by no test"},
		{File: "calc/calc.go", From: 11, To: 11, Message: "calc/calc.go:11 added or edited by the change, run by no test"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	now.Complete = false
	if got := Uncovered(now, untouched); got != nil {
		t.Fatalf("an incomplete coverage was read: %+v", got)
	}
}

func TestChangeShareCountsTheChangesLinesInExercisedFiles(t *testing.T) {
	now := Coverage{Complete: true, Files: map[string]*File{
		"calc/calc.go":   {lines: map[int]bool{3: true, 5: true, 6: false, 7: false}},
		"other/other.go": {lines: map[int]bool{1: false}},
	}}
	changed := map[string]map[int]bool{"calc/calc.go": {5: true, 6: true}, "other/other.go": {1: true}}
	untouched := func(file string, l int) (int, bool) { return l, !changed[file][l] }
	if c, cov := ChangeShare(now, untouched); c != 2 || cov != 1 {
		t.Fatalf("changed %d, covered %d; want 2 and 1", c, cov)
	}
}
