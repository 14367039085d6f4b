package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gauntlet-dev/gauntlet/internal/report"
)

// addOutputFlags declares the report flags of run and report merge: --format, repeatable, each
// FORMAT (stdout) or FORMAT=FILE, and -o FILE for the one format without a file.
func addOutputFlags(f *pflag.FlagSet, formats *[]string, output *string) {
	f.StringArrayVar(formats, "format", nil, "report format, repeatable: FORMAT to stdout (at most one) or FORMAT=FILE; "+
		formatList()+" (default text)")
	f.StringVarP(output, "output", "o", "", "write the --format report given without a file to FILE (the terminal keeps the text view)")
}

// formatList names every --format value, so that a format added to report.Formats shows up here.
func formatList() string {
	names := make([]string, len(report.Formats))
	for i, f := range report.Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// parseOutputs turns --format and -o into the reports to write; a conflict is a usage error.
func parseOutputs(ios *IOStreams, formats []string, output string) ([]report.Output, error) {
	outs, err := report.ParseOutputs(formats, output, sameFileFrom(ios))
	if err != nil {
		return nil, &usageError{err}
	}
	return outs, nil
}

// sameFileFrom says whether two report paths name one file: the same path from the working
// directory, or, for files that exist, the same file through a link.
func sameFileFrom(ios *IOStreams) func(a, b string) bool {
	wd, _ := ios.Getwd()
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		return filepath.Clean(p)
	}
	return func(a, b string) bool {
		a, b = abs(a), abs(b)
		if a == b {
			return true
		}
		ia, errA := os.Stat(a)
		ib, errB := os.Stat(b)
		return errA == nil && errB == nil && os.SameFile(ia, ib)
	}
}
