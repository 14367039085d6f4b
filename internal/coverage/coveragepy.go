package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// ReadCoveragePy reads the report `coverage json` writes (coverage.py, formats 2 and 3):
// {"files": {"path": {"executed_lines": [...], "missing_lines": [...], ...}}}. A file's
// instrumented lines are its executed and missing lines (excluded lines are not), its covered
// lines the executed ones. paths maps the file names (relative to where coverage ran, or absolute:
// RootRelative). The report is decoded as a stream, each string cut at 4 KiB, each number at
// 1 KiB, nesting at 64 levels.
//
// The error is a read error or a report that does not parse; what was read before it is kept.
func ReadCoveragePy(r io.Reader, paths PathMap, opts Options) (Coverage, error) {
	b := newBuilder("coverage.py", opts)
	dec := json.NewDecoder(boundedio.NewJSONSqueezer(r))
	err := pyReport(b, dec, paths)
	if err != nil {
		b.incomplete("the coverage.py report did not parse to its end")
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
	}
	return b.done(), err
}

const maxDepth = 64

func pyReport(b *builder, dec *json.Decoder, paths PathMap) error {
	found, err := boundedio.Field(dec, "files", maxDepth, func() error { return pyFiles(b, dec, paths) })
	if err == nil && !found {
		err = errors.New("no files in the coverage.py report")
	}
	return err
}

// pyFiles reads the report's files: an object of the files by name.
func pyFiles(b *builder, dec *json.Decoder, paths PathMap) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return err
		}
		s, _ := name.(string)
		if err := pyFile(b, dec, keptFile(b, paths, s)); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func pyFile(b *builder, dec *json.Decoder, f *File) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		switch key {
		case "executed_lines", "missing_lines":
			err = pyLines(b, dec, f, key.(string))
		default:
			err = skip(dec)
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// pyLines reads a file's list of executed or missing lines, named key.
func pyLines(b *builder, dec *json.Decoder, f *File, key string) error {
	covered := key == "executed_lines"
	if err := delim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		n, ok := t.(float64)
		if ok && pyLineNumber(n, b.opts.MaxLineNumber) {
			b.add(f, int(n), covered)
			continue
		}
		if _, isDelim := t.(json.Delim); isDelim {
			return fmt.Errorf("%s holds a %v", key, t)
		}
		b.add(f, 0, false) // notes the bound once
	}
	_, err := dec.Token()
	return err
}

// pyLineNumber says whether n is a line number to count: whole, from 1, and at most one past
// the largest line number kept (which add notes as the bound reached).
func pyLineNumber(n float64, maxLine int) bool {
	return n == math.Trunc(n) && n >= 1 && n <= float64(maxLine)+1
}

// delim reads the delimiter want.
func delim(dec *json.Decoder, want json.Delim) error { return boundedio.ExpectDelim(dec, want) }

// skip reads one value of any kind, nested at most maxDepth deep.
func skip(dec *json.Decoder) error { return boundedio.SkipValue(dec, maxDepth) }
