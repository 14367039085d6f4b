package main

import "testing"

// On a terminal the gate table is cut to its width, and its RUN column coloured after the
// alignment, so that the escape sequences do not shift the columns.
func TestFitTable(t *testing.T) {
	table := "GATE  KIND   RUN  REASON                 COMMAND\n" +
		"lint  check  yes  no paths: always runs  golangci-lint run ./...\n" +
		"test  check  no   disabled               go test ./...\n" +
		"\n" +
		"1 of 2 gates would run\n"
	want := "GATE  KIND   RUN  REASON                 COMMAND\n" +
		"lint  check  \x1b[32myes\x1b[0m  no paths: always runs  golangci…\n" +
		"test  check  \x1b[2mno\x1b[22m   disabled               go test …\n" +
		"\n" +
		"1 of 2 gates would run\n"
	if got := fitTable(table, 50, true); got != want {
		t.Errorf("fitTable =\n%q\nwant\n%q", got, want)
	}
	if got := fitTable(table, 0, false); got != table {
		t.Errorf("off a terminal, without colour, the table changed:\n%q", got)
	}
}
