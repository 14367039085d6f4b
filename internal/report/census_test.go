package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestJSONCarriesEachTestGatesCensus(t *testing.T) {
	results := []gates.Result{
		{Name: "test", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Tests: &gates.TestCensus{
			Runner: "go", Source: gates.CensusFromOutput, Passed: 2, Failed: 1, Skipped: 1, Complete: true,
			FailedTests: []string{"example.com/m::TestB"}, SkippedTests: []string{"example.com/m::TestC"},
		}},
		{Name: "e2e", Kind: gates.KindCheck, Status: gates.StatusPass, TestsUncounted: "make e2e: no test runner gauntlet recognises"},
		{Name: "lint", Kind: gates.KindCheck, Status: gates.StatusPass},
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, New("r1", time.Unix(0, 0), time.Second, results)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Gates []map[string]json.RawMessage `json:"gates"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := `{"runner":"go","source":"output","passed":2,"failed":1,"skipped":1,"complete":true,"failed_tests":["example.com/m::TestB"],"skipped_tests":["example.com/m::TestC"]}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc.Gates[0]["tests"]); err != nil || compact.String() != want {
		t.Errorf("tests of a counted gate:\n got %s\nwant %s", compact.String(), want)
	}
	if got := string(doc.Gates[1]["tests_uncounted"]); got != `"make e2e: no test runner gauntlet recognises"` {
		t.Errorf("tests_uncounted = %s", got)
	}
	for _, key := range []string{"tests", "tests_uncounted"} {
		if _, ok := doc.Gates[2][key]; ok {
			t.Errorf("a gate that is not a test gate has %q", key)
		}
	}
}

func TestReadJSONCleansTheCensus(t *testing.T) {
	data := `{"schema_version":1,"run_id":"r","verdict":"pass","started_at":"","duration_ms":0,"gates":[
		{"name":"test","kind":"check","status":"pass","exit_code":0,"duration_ms":0,"timed_out":false,"log":"","reason":"","tail":"","findings":[],
		 "tests":{"runner":"go\u001b[31m","source":"output","passed":1,"failed":0,"skipped":1,"complete":false,
		          "notes":["cut\nshort"],"skipped_tests":["pkg::TestX\u001b]0;title\u0007"],"failed_units":["pkg: build\nfailed"]},
		 "tests_uncounted":"a\nb"}]}`
	r, err := ReadJSON(bytes.NewReader([]byte(data)))
	if err != nil {
		t.Fatal(err)
	}
	g := r.Gates[0]
	c := g.Tests
	if c == nil || c.Runner != "go" || c.Notes[0] != "cut short" || c.SkippedTests[0] != "pkg::TestX" || c.FailedUnits[0] != "pkg: build failed" || g.TestsUncounted != "a b" {
		t.Errorf("read back uncleaned: %+v %q", c, g.TestsUncounted)
	}
}
