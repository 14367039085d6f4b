package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gauntlet-dev/gauntlet/internal/report"
)

func init() {
	scriptCmds["names"] = cmdNames
	scriptCmds["normreport"] = cmdNormReport
}

func readReport(ts *testscript.TestScript, file string) report.Report {
	f, err := os.Open(ts.MkAbs(file))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		ts.Fatalf("%s: %v", file, err)
	}
	return r
}

// cmdNames prints the gate names of a JSON report on one line, in report order ("names FILE").
func cmdNames(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: names FILE")
	}
	var names []string
	for _, g := range readReport(ts, args[0]).Gates {
		names = append(names, g.Name)
	}
	fmt.Fprintln(ts.Stdout(), strings.Join(names, " "))
}

// cmdNormReport prints what a report says apart from when, where and how long: the verdict and
// each gate's status, exit code and reason, sorted by name. Two runs of the same gates, sharded
// or not, print the same ("normreport FILE").
func cmdNormReport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: normreport FILE")
	}
	r := readReport(ts, args[0])
	gs := slices.Clone(r.Gates)
	slices.SortFunc(gs, func(a, b report.GateReport) int { return strings.Compare(a.Name, b.Name) })
	fmt.Fprintf(ts.Stdout(), "verdict %s\n", r.Verdict)
	for _, g := range gs {
		code := "-"
		if g.ExitCode != nil {
			code = fmt.Sprint(*g.ExitCode)
		}
		fmt.Fprintf(ts.Stdout(), "%s %s %s %q\n", g.Name, g.Status, code, g.Reason)
	}
}
