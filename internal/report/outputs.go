package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Output is one report a run writes: a format and its file, or stdout when Path is "".
type Output struct {
	Format Format
	Path   string
}

func (o Output) String() string {
	if o.Path == "" {
		return string(o.Format)
	}
	return string(o.Format) + "=" + o.Path
}

// OnTerminal says whether the format is what the terminal view already prints (the text summary,
// and GitHub's annotations): on stdout it is not written a second time.
func (f Format) OnTerminal() bool { return f == FormatText || f == FormatGitHub }

// ParseOutputs reads the values of a repeatable --format, each FORMAT or FORMAT=FILE ("-" is
// stdout), and of -o FILE, which sends the one format without a FILE there. No --format means
// text. Two reports to one destination are refused, never one silently replacing the other: at
// most one format goes to stdout, and no two to the same file. sameFile says whether two paths
// name one file; nil compares them cleaned. An error is the command line's mistake.
func ParseOutputs(formats []string, output string, sameFile func(a, b string) bool) ([]Output, error) {
	if sameFile == nil {
		sameFile = func(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }
	}
	if len(formats) == 0 {
		formats = []string{string(FormatText)}
	}
	var outs []Output
	toStdout := -1
	for _, v := range formats {
		o, err := parseOutput(v)
		if err != nil {
			return nil, err
		}
		if o.Path == "" {
			if err := secondToStdout(outs, toStdout, o, output); err != nil {
				return nil, err
			}
			toStdout = len(outs)
		}
		outs = append(outs, o)
	}
	if output != "" {
		if toStdout < 0 {
			return nil, fmt.Errorf("-o %s: every --format already has its file; write the format as --format FORMAT=%s", output, output)
		}
		outs[toStdout].Path = output
	}
	if err := sharedFile(outs, sameFile); err != nil {
		return nil, err
	}
	return outs, nil
}

// parseOutput reads one value of --format, FORMAT or FORMAT=FILE ("-" is stdout).
func parseOutput(v string) (Output, error) {
	name, path, hasPath := strings.Cut(v, "=")
	f, err := ParseFormat(name)
	if err != nil {
		return Output{}, fmt.Errorf("--format: %v", err)
	}
	if hasPath && path == "" {
		return Output{}, fmt.Errorf("--format %s: no file after =, want %s=FILE (or %s alone for stdout)", v, name, name)
	}
	if path == "-" {
		path = ""
	}
	return Output{Format: f, Path: path}, nil
}

// secondToStdout refuses o, bound for stdout, when outs[toStdout] already goes there (toStdout
// not -1); output is -o's file.
func secondToStdout(outs []Output, toStdout int, o Output, output string) error {
	switch {
	case toStdout < 0:
		return nil
	case output != "":
		return fmt.Errorf("-o %s takes the one --format without a file, but --format %s and --format %s both have none: write one as %s=FILE", output, outs[toStdout], o, o.Format)
	}
	return fmt.Errorf("--format %s and --format %s both go to stdout: give one of them a file, as %s=FILE", outs[toStdout], o, o.Format)
}

// sharedFile refuses two outputs that write one file.
func sharedFile(outs []Output, sameFile func(a, b string) bool) error {
	for i, a := range outs {
		for _, b := range outs[:i] {
			if a.Path != "" && b.Path != "" && sameFile(a.Path, b.Path) {
				return fmt.Errorf("--format %s and --format %s both write %s: give each report a file of its own", b.Format, a.Format, a.Path)
			}
		}
	}
	return nil
}

// StdoutFormat is the format that goes to stdout, if any.
func StdoutFormat(outs []Output) (Format, bool) {
	for _, o := range outs {
		if o.Path == "" {
			return o.Format, true
		}
	}
	return "", false
}

// WriteOutputs writes the report in every output's format to its file or to stdout, leaving out
// a format the terminal view already printed on stdout (OnTerminal). A report that cannot be
// written does not keep the others from being written; the errors are returned together.
func WriteOutputs(stdout io.Writer, outs []Output, r Report) error {
	var errs []error
	for _, o := range outs {
		if o.Path == "" && o.Format.OnTerminal() {
			continue
		}
		var buf bytes.Buffer
		if err := Write(&buf, o.Format, fromFolder(r, o.Path), TextOptions{}); err != nil {
			errs = append(errs, fmt.Errorf("render %s report: %w", o.Format, err))
			continue
		}
		if o.Path == "" {
			if _, err := stdout.Write(buf.Bytes()); err != nil {
				errs = append(errs, fmt.Errorf("write %s report: %w", o.Format, err))
			}
			continue
		}
		if err := os.WriteFile(o.Path, buf.Bytes(), 0o644); err != nil {
			errs = append(errs, fmt.Errorf("write report: %w", err))
		}
	}
	return errors.Join(errs...)
}

// fromFolder is r as a page written to file sees it: its logs' links lead from the file's folder
// to the project root. A report on stdout links from the root, where it is most often kept.
func fromFolder(r Report, file string) Report {
	if r.Origin == nil || r.Origin.Root == "" || file == "" {
		return r
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return r
	}
	rel, err := filepath.Rel(filepath.Dir(abs), r.Origin.Root)
	if err != nil {
		return r
	}
	o := *r.Origin
	o.LogDir = filepath.ToSlash(rel)
	if o.LogDir == "." {
		o.LogDir = ""
	}
	r.Origin = &o
	return r
}
