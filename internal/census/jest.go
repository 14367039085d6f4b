package census

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var file, status string
	var tests []jestTest
	failed := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		switch key {
		case "name":
			file, err = stringValue(dec)
		case "status":
			status, err = stringValue(dec)
		case "assertionResults":
			err = jestAssertions(b, dec, func(t jestTest) {
				if len(tests) < b.opts.MaxTests {
					tests = append(tests, t)
				}
				failed = failed || t.outcome == Fail
			})
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	file = b.rel(file)
	for _, t := range tests {
		b.add(Test{Suite: file, Name: t.name, File: file, Outcome: t.outcome})
	}
	if status == "failed" && !failed {
		b.fail(file, "the test file failed to run")
	}
	return nil
}

func jestAssertions(b *builder, dec *json.Decoder, add func(jestTest)) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		if err := expectDelim(dec, '{'); err != nil {
			return err
		}
		var path []string
		var title, status string
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
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
			if err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		o := Skip // pending, skipped, todo, disabled
		switch status {
		case "passed", "focused":
			o = Pass
		case "failed":
			o = Fail
		}
		add(jestTest{name: strings.Join(append(path, title), " > "), outcome: o})
	}
	_, err := dec.Token()
	return err
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
