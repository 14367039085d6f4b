package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func integrityReport() Report {
	r := fixtureReport()
	r.Integrity = []gates.IntegrityFinding{
		{Rule: gates.RuleTestSkipped, File: "a_test.go", Line: 12, Message: "skip added: t.Skip(\"flaky\")", Level: gates.IntegrityBlock},
		{Rule: gates.RuleTestFileRemoved, File: "b_test.go", Message: "test file deleted", Level: gates.IntegrityWarn},
	}
	r.Verdict = gates.VerdictWithIntegrity(r.Verdict, r.Integrity)
	return r
}

func TestEveryFormatCarriesIntegrityFindings(t *testing.T) {
	r := integrityReport()
	render := func(write func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	checks := []struct {
		format string
		out    string
		want   []string
	}{
		{"text", render(func(b *bytes.Buffer) error { return WriteText(b, r, TextOptions{}) }),
			[]string{"The change weakens the gates rather than fixing the code (2 findings, blocking):", "block  a_test.go:12  [test-skipped]", "warn  b_test.go  [test-file-removed]"}},
		{"github", render(func(b *bytes.Buffer) error { return WriteGitHub(b, r) }),
			[]string{"::error file=a_test.go,line=12,title=gauntlet integrity%3A test-skipped::skip added", "::warning file=b_test.go,title=gauntlet integrity%3A test-file-removed::test file deleted"}},
		{"sarif", render(func(b *bytes.Buffer) error { return WriteSARIF(b, r) }),
			[]string{`"id": "integrity/test-skipped"`, `"id": "integrity/test-file-removed"`, `"text": "A test was skipped or marked to be skipped."`, `"startLine": 12`}},
		{"junit", render(func(b *bytes.Buffer) error { return WriteJUnit(b, r) }),
			[]string{`<testsuite name="gauntlet integrity" tests="2" failures="1"`, `name="test-skipped a_test.go:12"`, `type="integrity"`}},
		{"json", render(func(b *bytes.Buffer) error { return WriteJSON(b, r) }),
			[]string{`"integrity": [`, `"rule": "test-skipped"`, `"level": "block"`}},
	}
	for _, c := range checks {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s report lacks %q:\n%s", c.format, w, c.out)
			}
		}
	}
	back, err := ReadJSON(strings.NewReader(checks[4].out))
	if err != nil || len(back.Integrity) != 2 || back.Verdict != gates.VerdictFail {
		t.Errorf("read back: %v, %d findings, verdict %s", err, len(back.Integrity), back.Verdict)
	}
}

func TestReadJSONRefusesAVerdictItsIntegrityFindingsContradict(t *testing.T) {
	r := integrityReport()
	r.Verdict = gates.VerdictPass
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(&b); err == nil {
		t.Error("a report whose blocking integrity finding stands beside a pass was believed")
	}
}
