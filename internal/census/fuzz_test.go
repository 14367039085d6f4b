package census

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedSamples adds the captured outputs in testdata whose names match glob to a fuzz corpus.
func seedSamples(f *testing.F, glob string) {
	names, err := filepath.Glob(filepath.Join("testdata", glob))
	if err != nil || len(names) == 0 {
		f.Fatalf("no samples for %s: %v", glob, err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkInvariants holds for every census, whatever it was read from.
func checkInvariants(t *testing.T, c Census, maxTests int) {
	t.Helper()
	if len(c.Tests) > maxTests {
		t.Fatalf("%d tests kept, more than %d", len(c.Tests), maxTests)
	}
	seen := map[string]bool{}
	for _, tt := range c.Tests {
		if tt.ID != joinID(tt.Suite, tt.Name) {
			t.Fatalf("ID %q is not suite %q and name %q", tt.ID, tt.Suite, tt.Name)
		}
		if len(tt.Suite) > maxPart || len(tt.Name) > maxPart || len(tt.File) > maxPart {
			t.Fatalf("unbounded test: %q", tt.ID)
		}
		if seen[tt.ID] {
			t.Fatalf("ID %q twice", tt.ID)
		}
		seen[tt.ID] = true
		if tt.Outcome != Pass && tt.Outcome != Fail && tt.Outcome != Skip {
			t.Fatalf("%q has outcome %d", tt.ID, tt.Outcome)
		}
	}
	if len(c.Failed) > maxUnits || len(c.Notes) > maxNotes {
		t.Fatalf("%d units, %d notes", len(c.Failed), len(c.Notes))
	}
	if !c.Complete && len(c.Notes) == 0 {
		t.Fatal("incomplete without saying why")
	}
}

func FuzzReadGo(f *testing.F) {
	seedSamples(f, "go-*.json")
	f.Add([]byte(`{"Action":"run","Package":"p","Test":"T"}` + "\n" + `{"Action":"fail","Package":"p"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, ReadGo(bytes.NewReader(data), Options{MaxTests: 50}), 50)
	})
}

func FuzzReadJUnit(f *testing.F) {
	seedSamples(f, "*.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, ReadJUnit(bytes.NewReader(data), Options{MaxTests: 50}), 50)
	})
}

// FuzzXMLScanner checks the scanner against encoding/xml: on every document encoding/xml reads
// whole, both see the same elements with the same attributes.
func FuzzXMLScanner(f *testing.F) {
	seedSamples(f, "*.xml")
	f.Add([]byte(`<a x="1&amp;2&#65;&#x42;" y='q"'><!-- <b> --><![CDATA[<c>]]><?pi <d>?><e/></a>`))
	f.Add([]byte("<!DOCTYPE a [<!ENTITY e \"<b>\"><!-- > -->]><a\r\n b=\"1\r\n2\"></a >"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, ok := stdlibElements(data)
		got, err := scannerElements(data)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("encoding/xml reads it, the scanner does not: %v\nencoding/xml: %s", err, want)
		}
		if got != want {
			t.Fatalf("scanner:\n%s\nencoding/xml:\n%s", got, want)
		}
	})
}

func stdlibElements(data []byte) (string, bool) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var b strings.Builder
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return b.String(), true
		}
		if err != nil {
			return "", false
		}
		switch e := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > xmlMaxDepth {
				return "", false
			}
			if len(e.Name.Local) > xmlMaxName || len(e.Attr) > xmlMaxAttrs {
				return "", false
			}
			fmt.Fprintf(&b, "<%s", e.Name.Local)
			for _, a := range e.Attr {
				if len(a.Value) > xmlMaxValue || len(a.Name.Local) > xmlMaxName {
					return "", false
				}
				fmt.Fprintf(&b, " %s=%q", a.Name.Local, a.Value)
			}
			b.WriteString(">\n")
		case xml.EndElement:
			depth--
			fmt.Fprintf(&b, "</%s>\n", e.Name.Local)
		}
	}
}

func scannerElements(data []byte) (string, error) {
	s := newXMLScanner(bytes.NewReader(data))
	var b strings.Builder
	for {
		tok, err := s.next()
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return b.String(), err
		}
		if tok.end {
			fmt.Fprintf(&b, "</%s>\n", tok.name)
			continue
		}
		fmt.Fprintf(&b, "<%s", tok.name)
		for _, a := range tok.attrs {
			fmt.Fprintf(&b, " %s=%q", a.name, a.value)
		}
		b.WriteString(">\n")
	}
}

func FuzzReadTAP(f *testing.F) {
	seedSamples(f, "*tap*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, ReadTAP(bytes.NewReader(data), Options{MaxTests: 50, Root: "/home/dev/shop"}), 50)
	})
}

func FuzzReadLibtest(f *testing.F) {
	seedSamples(f, "libtest-*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, ReadLibtest(bytes.NewReader(data), Options{MaxTests: 50}), 50)
	})
}

func FuzzReadJest(f *testing.F) {
	seedSamples(f, "jest.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, ReadJest(bytes.NewReader(data), Options{MaxTests: 50}), 50)
	})
}

// FuzzDetect: any command is read without panic, and applying what Detect asks gives a command
// that already asks for it.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{"go test ./...", "CI=1 npx vitest run --reporter=verbose", "node --test --test-reporter=spec",
		"uv run python -m pytest 'a b' && jest", "cargo +nightly test -- --nocapture", `echo "x" | gotestsum -- ./... # c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Command{Shell: s}
		reqs := Detect(c)
		applied := Apply(c, reqs, func(i int) string { return fmt.Sprintf("/tmp/c%d", i) }, posixQuote)
		again := Detect(applied)
		if len(again) != len(reqs) {
			return // the string was not one a shell reads the same way (an open quote)
		}
		for _, r := range again {
			if len(r.Args) > 0 {
				t.Fatalf("%q applied as %q still asks: %s", s, applied.Shell, showRequests([]Request{r}))
			}
		}
	})
}

// fuzzCensus makes a census of lines "suite::name o file digest", o one of p, f, s.
func fuzzCensus(data string) Census {
	c := Census{Runner: "go", Complete: len(data)%2 == 0}
	for _, line := range strings.Split(data, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		o := map[string]Outcome{"p": Pass, "f": Fail, "s": Skip}[strings.Join(f[1:min(2, len(f))], "")]
		if o == 0 {
			o = Pass
		}
		t := tc(f[0], o)
		if len(f) > 2 {
			t.File = f[2]
		}
		if len(f) > 3 {
			t.Digest = f[3]
		}
		c.Tests = append(c.Tests, t)
	}
	return Merge(c) // one test per ID, as every reader gives
}

// FuzzCompare: any two censuses and any change compare without panic, and a census compared
// with itself is quiet.
func FuzzCompare(f *testing.F) {
	f.Add("p::TestA p a_test.go d1\np::TestA/x p\np::TestB s", "p::TestAB p a_test.go d1\np::TestA/x f\nq::TestB p", "a_test.go", "A")
	f.Add("s::add > x p f.ts", "s::sum > x p f.ts\ns::sum > y s f.ts", "f.ts", "sum")
	f.Fuzz(func(t *testing.T, base, now, file, name string) {
		b, n := fuzzCensus(base), fuzzCensus(now)
		change := ChangeInfo{DeletedTests: []string{file}, ModifiedTests: []string{file}, DeletedCode: []string{name + ".go"},
			RemovedNames: []string{name}, RenamedTests: map[string]string{file: name}, DeletedDirs: []string{name}}
		for _, fd := range Compare(b, n, change) {
			if fd.Message == "" || (fd.Kind != KindFailing && fd.Kind != KindSkipped && fd.Kind != KindMissing && fd.Kind != KindFewer && fd.Kind != KindEmpty) {
				t.Fatalf("finding %+v", fd)
			}
		}
		if len(b.Tests) > 0 {
			b.Complete = true
			if got := Compare(b, b, ChangeInfo{}); len(got) != 0 {
				t.Fatalf("a census compared with itself: %s", show(got))
			}
		}
	})
}
