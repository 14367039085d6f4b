package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// parsedSuites reads back the parts of a JUnit file that CI reporters use.
type parsedSuites struct {
	Suites []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, r Report) parsedSuites {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("output is not valid XML: %v\n%s", err, b.String())
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("got %d suites, want 1", len(doc.Suites))
	}
	return doc
}

func TestJUnitMapsStatuses(t *testing.T) {
	suite := parseJUnit(t, fixtureReport()).Suites[0]
	if suite.Name != "gauntlet" || suite.Tests != 6 || suite.Failures != 1 || suite.Errors != 1 || suite.Skipped != 2 {
		t.Errorf("suite = %s tests=%d failures=%d errors=%d skipped=%d", suite.Name, suite.Tests, suite.Failures, suite.Errors, suite.Skipped)
	}
	byName := map[string]int{}
	for i, c := range suite.Cases {
		byName[c.Name] = i
		if c.ClassName != "gauntlet" {
			t.Errorf("%s: classname = %q", c.Name, c.ClassName)
		}
	}
	test := suite.Cases[byName["test"]]
	if test.Failure == nil || test.Failure.Message != "exit status 1" || !strings.Contains(test.Failure.Body, "--- FAIL: TestX") {
		t.Errorf("test: failure = %+v", test.Failure)
	}
	if test.Time != "4.100" {
		t.Errorf("test: time = %q, want seconds", test.Time)
	}
	if tc := suite.Cases[byName["typecheck"]]; tc.Error == nil || tc.Failure != nil {
		t.Errorf("typecheck: want an <error>, got %+v", tc)
	}
	lint := suite.Cases[byName["lint"]]
	if lint.Failure != nil || lint.Error != nil || lint.Skipped != nil {
		t.Errorf("lint (warn) must pass, got %+v", lint)
	}
	if !strings.Contains(lint.SystemOut, "warning") || !strings.Contains(lint.SystemOut, "exported func Foo") {
		t.Errorf("lint system-out = %q, want a warning note and the tail", lint.SystemOut)
	}
	for _, name := range []string{"review", "docs"} {
		if suite.Cases[byName[name]].Skipped == nil {
			t.Errorf("%s: want <skipped>", name)
		}
	}
	if vet := suite.Cases[byName["vet"]]; vet.Failure != nil || vet.Error != nil || vet.Skipped != nil || vet.SystemOut != "" {
		t.Errorf("vet (pass) = %+v, want a bare test case", vet)
	}
}

func TestJUnitSurvivesHostileOutput(t *testing.T) {
	hostile := "<tag> & \"quotes\" ]]> end of cdata\x00\x01\x08\x0b\x0c\x1b[31m\xff\xfe invalid utf-8 \uFFFE\uFFFF\n"
	r := New("id", time.Now(), time.Second, []gates.Result{
		{Name: "fail", Status: gates.StatusFail, ExitCode: 1, Reason: "exit <1> & \x00", Tail: hostile},
		{Name: "warn", Status: gates.StatusWarn, ExitCode: 1, Reason: "w", Tail: hostile},
		{Name: "error", Status: gates.StatusError, ExitCode: 127, Reason: "e]]>", Tail: hostile},
		{Name: "skip", Status: gates.StatusSkipped, ExitCode: -1, Reason: "\x1b]0;x\x07<why>"},
	})
	suite := parseJUnit(t, r).Suites[0]
	body := suite.Cases[0].Failure.Body
	for _, want := range []string{"<tag> & \"quotes\" ]]> end of cdata", "invalid utf-8"} {
		if !strings.Contains(body, want) {
			t.Errorf("failure body %q lacks %q", body, want)
		}
	}
	if strings.ContainsAny(body, "\x00\x01\x08\x0b\x0c\x1b\uFFFE\uFFFF") {
		t.Errorf("failure body keeps characters XML forbids: %q", body)
	}
	if got := suite.Cases[0].Failure.Message; got != "exit <1> &" {
		t.Errorf("failure message = %q", got)
	}
	if got := suite.Cases[3].Skipped.Message; got != "skipped: <why>" {
		t.Errorf("skipped message = %q", got)
	}
}
