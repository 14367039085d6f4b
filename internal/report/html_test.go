package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func renderHTML(t *testing.T, r Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, FormatHTML, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The page shows the verdict, every gate on the timeline, and each failing gate's findings
// (file:line) and output; it loads nothing from anywhere.
func TestHTMLShowsTheRun(t *testing.T) {
	results := fixtureResults()
	results[0].Started = fixtureStart.Add(time.Second)
	results[1].Started = fixtureStart.Add(2 * time.Second)
	results[1].Needs = []string{"deps"}
	r := New("20261121T093000Z-4f2a", fixtureStart, 65432*time.Millisecond, results).
		WithSetup(fixtureStart, []gates.Result{{Name: "deps", Kind: gates.KindCheck, Status: gates.StatusPass, Duration: time.Second, Started: fixtureStart, NeededBy: []string{"test"}}})
	r.Gates = append(r.Gates, GateReport{Name: "fmt", Status: gates.StatusPass, Cached: true, Reason: "cached: passed in run r0"})
	r.Integrity = []gates.IntegrityFinding{{Rule: "test-skipped", File: "pkg/x_test.go", Line: 9, Message: "t.Skip added", Level: gates.IntegrityBlock}}
	r.Gates[3].Cause = &gates.Cause{ID: "tool-missing", Summary: "tsc is not installed", Fix: "npm install", Line: "sh: 1: tsc: not found"}
	page := renderHTML(t, r)

	for _, want := range []string{
		`<span class="verdict s-fail">fail</span>`,
		`id="timeline"`, `>deps <span class="tag">setup</span>`, `needs deps`,
		`<span class="tag">cached</span>`, `skipped: no changed file matches paths`,
		`pkg/x_test.go:12: </span><span class="sev-error">error</span>: <span class="msg">got`,
		`x_test.go:12: got &lt;nil&gt; &amp; want &#34;a|b&#34;`,
		`<details class="gate fail" open id="gate-test">`,
		`<details class="gate error" id="gate-typecheck">`,
		`t.Skip added`, `tsc is not installed`,
		`Content-Security-Policy" content="default-src 'none'`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// What weakens the gates and the environment's causes come before the gates, as in the
	// stop hook's reason.
	if i, c, g := strings.Index(page, `id="integrity"`), strings.Index(page, `id="causes"`), strings.Index(page, `id="timeline"`); !(i >= 0 && i < c && c < g) {
		t.Errorf("integrity at %d, causes at %d, timeline at %d: want them in that order", i, c, g)
	}
	for _, external := range []string{"<script", "http://", "https://", "@import", "url("} {
		if strings.Contains(page, external) {
			t.Errorf("page contains %q: it must stand alone", external)
		}
	}
	// The ANSI codes of the output are not shown.
	if strings.Contains(page, "\x1b") || strings.Contains(page, "[31m") {
		t.Error("page shows the output's escape sequences")
	}
}

// hostile is what a gate, a tool or a host can put in any field of a report.
const hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\x1b]0;title\x07\x1b[31m\x00\x08\x7f\u0085\"'&</textarea>\r\n"

// fillStrings sets every string reachable from v (fields, slice elements, pointers) to the
// field's name and the hostile text, so that a field added later is covered without a change
// here; slices get one element, pointers a value.
func fillStrings(v reflect.Value, name string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(name + hostile)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Ptr:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), name)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillStrings(s.Index(0), name)
		v.Set(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				fillStrings(v.Field(i), f.Name)
			}
		}
	}
}

// CheckNoHostileText fails when the hostile text got into the page anywhere but as escaped text.
func checkNoHostileText(t *testing.T, page string) {
	t.Helper()
	lower := strings.ToLower(page)
	for _, bad := range []string{"<script", "<img", "</textarea", "\x1b", "\x00", "\x07", "\x08", "\x7f", "\u0085", "\r"} {
		if strings.Contains(lower, bad) {
			i := strings.Index(lower, bad)
			t.Errorf("page holds %q unescaped: …%q…", bad, page[max(0, i-80):min(len(page), i+80)])
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile text is not shown escaped anywhere: was it dropped instead?")
	}
}

// Every field of the report is hostile text: the page shows it as text, never as markup, and
// without the control characters.
func TestHTMLEscapesEveryField(t *testing.T) {
	var r Report
	fillStrings(reflect.ValueOf(&r).Elem(), "")
	// Real statuses too, so that the sections of failing, cached and skipped gates render.
	gs := make([]GateReport, 0, 4)
	for _, s := range []gates.Status{gates.StatusFail, gates.StatusError, gates.StatusSkipped, gates.StatusPass} {
		g := r.Gates[0]
		g.Status, g.Cached = s, s == gates.StatusPass
		gs = append(gs, g)
	}
	gs = append(gs, r.Gates[0]) // and one whose status is hostile too
	r.Gates = gs
	r.Setup[0].Status = gates.StatusFail
	page := renderHTML(t, r)
	checkNoHostileText(t, page)
	for _, field := range []string{"Name", "Tail", "Reason", "Hint", "Command", "Log", "Message", "Summary", "Fix", "RunID", "FailedTests"} {
		if !strings.Contains(page, field+"&lt;script&gt;") {
			t.Errorf("the page does not show field %s (escaped)", field)
		}
	}
}
