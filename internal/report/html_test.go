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
		`<details class="gate error" open id="gate-typecheck">`, // its one line of output, unfolded
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

// An environment cause is said once on the page, in the box of causes above the gates: the
// gate's header says the rest of its reason, or that its environment failed, pointing up.
func TestHTMLSaysACauseOnce(t *testing.T) {
	cause := gates.Cause{ID: "tool-missing", Summary: "tsc is not installed", Fix: "npm install", Line: "sh: 1: tsc: not found"}
	for _, reason := range []string{gates.CauseReason(cause), "timed out after 1s; " + gates.CauseReason(cause)} {
		r := New("id", fixtureStart, time.Second, []gates.Result{
			{Name: "typecheck", Status: gates.StatusError, Started: fixtureStart, Duration: time.Second, Reason: reason, Cause: &cause},
		})
		page := renderHTML(t, r)
		if got := strings.Count(page, "tsc is not installed"); got != 1 {
			t.Errorf("reason %q: the cause is said %d times, want once (in the box of causes)", reason, got)
		}
		if !strings.Contains(page, `href="#causes"`) {
			t.Errorf("reason %q: the gate does not point to the box of causes", reason)
		}
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

// The page says what was checked: the repository, its branch and commit, the config file and
// the gauntlet that ran; a log is a link relative to the page's folder.
func TestHTMLNamesTheRunsOrigin(t *testing.T) {
	r := fixtureReport()
	r.Origin = &Origin{Repository: "shop", Remote: "git@github.com:acme/shop.git", Branch: "main", Commit: "4f2a9c1e0b7d",
		ConfigFile: ".gauntlet.yml", Version: "1.4.0 abc123", LogDir: "../.."}
	page := renderHTML(t, r)
	for _, want := range []string{
		`<dd id="repository">shop <span class="muted">git@github.com:acme/shop.git</span></dd>`,
		`<dd id="branch">main</dd>`, `<dd id="commit"><code>4f2a9c1e0b7d</code></dd>`,
		`<dd id="config"><code>.gauntlet.yml</code></dd>`, `<dd id="version">gauntlet 1.4.0 abc123</dd>`,
		`<a href="../../.gauntlet/logs/20261121T093000Z-4f2a/test.log">.gauntlet/logs/20261121T093000Z-4f2a/test.log</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// A report without an origin (a merge of shards' reports) still links a log, from the project's
// root, and names nothing it does not know.
func TestHTMLWithoutOrigin(t *testing.T) {
	page := renderHTML(t, fixtureReport())
	if !strings.Contains(page, `<a href=".gauntlet/logs/20261121T093000Z-4f2a/test.log">`) || strings.Contains(page, `id="branch"`) {
		t.Error("a report without an origin links its logs from the root and names no branch")
	}
}

// A gate's short output (ten lines or fewer) is shown, not folded away; a long one is folded
// under its summary line.
func TestHTMLShortOutputUnfolded(t *testing.T) {
	r := fixtureReport()
	r.Gates[2].Tail = strings.Repeat("long line\n", 11)
	page := renderHTML(t, r)
	for _, want := range []string{
		`<details class="gate error" open id="gate-typecheck">`,
		"<pre class=\"tail\">sh: 1: tsc: not found</pre>",
		`<details class="gate warn" id="gate-lint">`,
		`<details><summary>the output's last lines`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The timeline's ticks fall on round durations, whatever the run's length.
func TestTimelineRoundTicks(t *testing.T) {
	for _, tt := range []struct {
		run  time.Duration
		want []string
	}{
		{65432 * time.Millisecond, []string{"0", "15s", "30s", "45s", "1m"}},
		{7 * time.Second, []string{"0", "2s", "4s", "6s"}},
		{830 * time.Millisecond, []string{"0", "200ms", "400ms", "600ms", "800ms"}},
		{21 * time.Minute, []string{"0", "5m", "10m", "15m", "20m"}},
		{100 * time.Second, []string{"0", "20s", "40s", "1m", "1m20s", "1m40s"}},
	} {
		axis, _ := timeline(tt.run, []GateReport{{Name: "a", Status: gates.StatusPass, DurationMS: tt.run.Milliseconds()}})
		var got []string
		for _, tick := range axis {
			got = append(got, tick.Label)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v: ticks %v, want %v", tt.run, got, tt.want)
		}
	}
}

// The integrity box of a run whose only finding is lines no test runs does not say the change
// weakens the gates.
func TestIntegrityHeadingOfUncoveredLines(t *testing.T) {
	only := []gates.IntegrityFinding{{Rule: gates.RuleChangeUncovered, Level: gates.IntegrityWarn}}
	if got := IntegrityHeadingOf(only); got != "Lines the change wrote that no test runs" {
		t.Errorf("heading %q", got)
	}
	mixed := append(only, gates.IntegrityFinding{Rule: gates.RuleTestSkipped, Level: gates.IntegrityBlock})
	if got := IntegrityHeadingOf(mixed); got != IntegrityHeading {
		t.Errorf("heading %q, want %q", got, IntegrityHeading)
	}
}
