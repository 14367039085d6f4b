package census

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/boundedio"
)

// ReadJest reads the report jest --json --outputFile writes. Each test's suite and file is its
// test file (relative to Options.Root), its name the path of its describe blocks and title,
// "add > handles negatives". A test file that failed with no failing test of its own (it did
// not load or compile) is a failed unit.
func ReadJest(r io.Reader, opts Options) Census {
	b := newBuilder("jest", opts)
	dec := json.NewDecoder(boundedio.NewJSONSqueezer(r))
	err := jestReport(b, dec)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		b.incomplete("the jest report ended early")
	case err != nil:
		b.incomplete("the jest report did not parse: " + err.Error())
	}
	return b.census()
}

func jestReport(b *builder, dec *json.Decoder) error {
	found, err := boundedio.Field(dec, "testResults", 0, func() error {
		if err := expectDelim(dec, '['); err != nil {
			return err
		}
		for dec.More() {
			if err := jestFile(b, dec); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return err
	})
	if err == nil && !found {
		err = errors.New("no testResults")
	}
	return err
}

type jestTest struct {
	name    string
	outcome Outcome
}

func jestFile(b *builder, dec *json.Decoder) error {
	jf := &jestFileReport{max: b.opts.MaxTests}
	if err := readObject(dec, func(key any) error { return jf.field(b, dec, key) }); err != nil {
		return err
	}
	file := b.rel(jf.file)
	for _, t := range jf.tests {
		b.add(Test{Suite: file, Name: t.name, File: file, Outcome: t.outcome})
	}
	if jf.status == "failed" && !jf.failed {
		b.fail(file, "the test file failed to run")
	}
	return nil
}

// jestFileReport is what a census keeps of one of testResults: a test file's report.
type jestFileReport struct {
	file, status string
	tests        []jestTest
	failed       bool // a test of the file failed
	max          int  // tests kept at most
}

// field reads the value of one of the report's keys.
func (jf *jestFileReport) field(b *builder, dec *json.Decoder, key any) (err error) {
	switch key {
	case "name":
		jf.file, err = stringValue(dec)
	case "status":
		jf.status, err = stringValue(dec)
	case "assertionResults":
		err = jestAssertions(b, dec, jf.add)
	default:
		err = skipValue(dec)
	}
	return err
}

func (jf *jestFileReport) add(t jestTest) {
	if len(jf.tests) < jf.max {
		jf.tests = append(jf.tests, t)
	}
	jf.failed = jf.failed || t.outcome == Fail
}

// readObject reads a JSON object, field reading the value of each key.
func readObject(dec *json.Decoder, field func(key any) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

func jestAssertions(b *builder, dec *json.Decoder, add func(jestTest)) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		t, err := jestAssertion(dec)
		if err != nil {
			return err
		}
		add(t)
	}
	_, err := dec.Token()
	return err
}

// jestOutcomes are the statuses of an assertion that are not a skip (pending, skipped, todo,
// disabled).
var jestOutcomes = sync.OnceValue(func() map[string]Outcome {
	return map[string]Outcome{"passed": Pass, "focused": Pass, "failed": Fail}
})

// jestAssertion reads one of a test file's assertionResults.
func jestAssertion(dec *json.Decoder) (jestTest, error) {
	var path []string
	var title, status string
	err := readObject(dec, func(key any) (err error) {
		switch key {
		case "ancestorTitles":
			path, err = stringsValue(dec, maxTAPDepth)
		case "title":
			title, err = stringValue(dec)
		case "status":
			status, err = stringValue(dec)
		default:
			err = skipValue(dec)
		}
		return err
	})
	if err != nil {
		return jestTest{}, err
	}
	o, ok := jestOutcomes()[status]
	if !ok {
		o = Skip
	}
	return jestTest{name: strings.Join(append(path, title), " > "), outcome: o}, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error { return boundedio.ExpectDelim(dec, want) }

func stringValue(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch v := tok.(type) {
	case string:
		return v, nil
	case nil:
		return "", nil
	case json.Delim:
		return "", fmt.Errorf("want a string, got %v", v)
	}
	return "", nil
}

func stringsValue(dec *json.Decoder, limit int) ([]string, error) {
	if err := expectDelim(dec, '['); err != nil {
		return nil, err
	}
	var out []string
	for dec.More() {
		s, err := stringValue(dec)
		if err != nil {
			return nil, err
		}
		if len(out) < limit {
			out = append(out, s)
		}
	}
	_, err := dec.Token()
	return out, err
}

// skipValue reads past one value, however nested, keeping nothing of it.
func skipValue(dec *json.Decoder) error { return boundedio.SkipValue(dec, 0) }
