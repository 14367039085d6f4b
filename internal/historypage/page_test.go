package historypage

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/runlog"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

var now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func render(t *testing.T, h stophook.History, opts Options) string {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = now
	}
	var b bytes.Buffer
	if err := Write(&b, h, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func gate(name, status string, ms int64) stophook.GateOutcome {
	return stophook.GateOutcome{Name: name, Status: status, DurationMS: ms}
}

// The pictures: the release named with its session and reason, blocks per gate, durations with
// their median and spread, and a gate that passed and failed on one state.
func TestPageDrawsTheHistory(t *testing.T) {
	at := func(h int) time.Time { return now.Add(time.Duration(h-48) * time.Hour) }
	entries := []stophook.HistoryEntry{
		{Time: at(0), Host: "claude", Session: "s1", Decision: "block", Why: stophook.WhyFail, Failed: []string{"test"}, State: "aaaa",
			Gates: []stophook.GateOutcome{gate("test", "fail", 4000), gate("lint", "pass", 1000)}},
		{Time: at(1), Host: "claude", Session: "s1", Decision: "allow", Why: stophook.WhyRetryLimit, Failed: []string{"test"}, Attempt: 3},
		{Time: at(25), Host: "codex", Session: "s2", Decision: "allow", Why: stophook.WhyPass, State: "aaaa",
			Gates: []stophook.GateOutcome{gate("test", "pass", 6000), gate("lint", "pass", 1200)}},
		{Time: at(26), Host: "codex", Session: "s2", Decision: "block", Why: stophook.WhyFail, Failed: []string{"test", "lint"}, State: "bbbb",
			Gates: []stophook.GateOutcome{gate("test", "fail", 5000), gate("lint", "fail", 800), {Name: "vet", Status: "pass", Cached: true}}},
	}
	page := render(t, stophook.History{Entries: entries}, Options{
		Project: "proj",
		Describe: func(e stophook.HistoryEntry) string {
			return "retry limit, still failing: " + strings.Join(e.Failed, ", ")
		},
	})
	for _, want := range []string{
		"History of proj: runs and stops",
		"4 stop-hook decisions, 2026-11-24 to 2026-11-25: 2 blocks, 1 pass, 1 release, 0 not judged",
		`<td class="mono">s1</td><td>retry limit, still failing: test</td><td><strong class="t-fail">no pass since</strong>`,
		`<td>test</td><td class="num">2</td>`, `<td>lint</td><td class="num">1</td>`,
		// test's runs: 4s, 6s, 5s; median 5s, spread 4s to 6s. vet's cached answer is no run.
		`<td>test</td><td class="num">3</td><td class="num">5.0s</td><td class="num">4.0s – 6.0s</td>`,
		`<td>test</td><td class="mono">aaaa</td><td class="num">1</td><td class="num">1</td><td class="mono">fail pass </td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<td>vet</td>") {
		t.Error("a cached answer is drawn as a run")
	}
	if strings.Contains(page, `<td>lint</td><td class="mono">`) {
		t.Error("lint is listed as flaky, but it failed on another state than the one it passed on")
	}
	// Two weeks ending today, the 26th: a short history reads as days among days, the days
	// without a decision shown as such.
	if n := strings.Count(page, `<div class="day"`); n != 14 {
		t.Errorf("%d days drawn, want 14", n)
	}
}

// However long the history, the page is bounded: 90 days, the capped lists, and a note for each
// cap.
func TestPageIsBounded(t *testing.T) {
	var entries []stophook.HistoryEntry
	for i := range 8000 {
		e := stophook.HistoryEntry{
			Time: now.Add(-time.Duration(8000-i) * 30 * time.Minute), Host: "claude", Session: fmt.Sprintf("s%d", i),
			Decision: "allow", Why: stophook.WhyPass, State: fmt.Sprintf("%016x", i/2),
		}
		if i%64 == 0 {
			e.Why, e.Failed = stophook.WhyRetryLimit, []string{"g1"}
		}
		for g := range 14 {
			status := "pass"
			if i%2 == 1 {
				status = "fail"
			}
			e.Gates = append(e.Gates, gate(fmt.Sprintf("g%d", g), status, int64(100*g+i%7)))
		}
		entries = append(entries, e)
	}
	page := render(t, stophook.History{Entries: entries}, Options{})
	for _, want := range []string{
		"The history holds 8000 decisions; the page reads the newest 5000.",
		"The per-day chart shows the last 90 days;",
		"Durations are drawn for the 12 slowest of 14 gates.",
		"the newest 20 are listed.",
		"releases; the newest 50 are listed.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for what, want := range map[string]int{`<div class="day"`: 90, `<div class="range">`: 12, `<strong class="t-fail">no pass since</strong>`: 50} {
		if n := strings.Count(page, what); n != want {
			t.Errorf("%d of %q, want %d", n, what, want)
		}
	}
	// Each gate's picture is of its last 30 runs.
	if n := strings.Count(page, `<b class="`) - 4*90; n != 12*30 {
		t.Errorf("%d runs drawn, want %d", n, 12*30)
	}
}

const hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\x1b]0;title\x07\x1b[31m\x00\x08\x7f\u0085\"'&</textarea>\r\n"

// Every text of the history comes from a host, a gate or a file an agent could write: the page
// shows it escaped and without control characters.
func TestPageEscapesEveryField(t *testing.T) {
	h := func(s string) string { return s + hostile }
	e := stophook.HistoryEntry{
		Time: now.Add(-time.Hour), Host: h("host"), Session: h("session"), Prompt: h("prompt"), Decision: "block", Why: stophook.WhyFail,
		Guard: h("guard"), Verdict: h("verdict"), Failed: []string{h("failed")}, Message: h("message"), Overrides: []string{h("override")},
		Notes: []string{h("note")}, State: h("state"), MAC: h("mac"),
		Gates: []stophook.GateOutcome{{Name: h("gate"), Status: "fail", DurationMS: 5}},
	}
	flakyPass := e
	flakyPass.Gates = []stophook.GateOutcome{{Name: h("gate"), Status: "pass", DurationMS: 6}, {Name: h("gate2"), Status: h("status"), DurationMS: 1}}
	release := e
	release.Decision, release.Why = "allow", stophook.WhyRetryLimit
	page := render(t, stophook.History{Entries: []stophook.HistoryEntry{e, flakyPass, release}}, Options{
		Project:   h("project"),
		CheckNote: h("check"),
		Runs: []runlog.Record{{Time: now.Add(-time.Hour), RunID: h("runid"), Verdict: h("verdict"),
			Gates: []runlog.Gate{{Name: h("rungate"), Status: "fail"}, {Name: h("rungate2"), Status: h("runstatus")}}}},
		Describe: func(e stophook.HistoryEntry) string {
			return e.Message + " " + strings.Join(e.Failed, ", ") + " " + e.Guard
		},
	})
	lower := strings.ToLower(page)
	for _, bad := range []string{"<script", "<img", "</textarea", "\x1b", "\x00", "\x07", "\x08", "\x7f", "\u0085", "\r"} {
		if i := strings.Index(lower, bad); i >= 0 {
			t.Errorf("page holds %q unescaped: …%q…", bad, page[max(0, i-80):min(len(page), i+80)])
		}
	}
	for _, field := range []string{"project", "check", "host", "session", "message", "failed", "gate", "state", "status", "runid", "verdict", "rungate"} {
		if !strings.Contains(page, field+"&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("the page does not show %s escaped", field)
		}
	}
}

func TestPercentile(t *testing.T) {
	ms := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for p, want := range map[int]int64{10: 1, 50: 5, 90: 9, 100: 10} {
		if got := percentile(ms, p); got != want {
			t.Errorf("percentile %d = %d, want %d", p, got, want)
		}
	}
	if got := percentile([]int64{7}, 50); got != 7 {
		t.Errorf("percentile of one = %d", got)
	}
}

// The page covers runs as well as stops: how many ran and with what verdict, each day's runs,
// the last runs with what did not pass, and the gates' durations from runs too.
func TestPageDrawsTheRuns(t *testing.T) {
	at := func(h int) time.Time { return now.Add(time.Duration(h-30) * time.Hour) }
	runs := []runlog.Record{
		{Time: at(0), RunID: "r1", Verdict: "fail", DurationMS: 4200, Gates: []runlog.Gate{{Name: "test", Status: "fail", DurationMS: 4000}, {Name: "vet", Status: "pass", DurationMS: 300}}},
		{Time: at(1), RunID: "r2", Verdict: "error", DurationMS: 10, Gates: []runlog.Gate{{Name: "tsc", Status: "error", DurationMS: 5}}},
		{Time: at(28), RunID: "r3", Verdict: "pass", DurationMS: 6100, Gates: []runlog.Gate{{Name: "test", Status: "pass", DurationMS: 6000}, {Name: "vet", Status: "pass", Cached: true}}},
		// A stop's run: listed, but its gates are drawn from the stop's history entry, not twice.
		{Time: at(29), RunID: "r4", Verdict: "pass", DurationMS: 9100, Stop: true, Gates: []runlog.Gate{{Name: "test", Status: "pass", DurationMS: 9000}}},
	}
	page := render(t, stophook.History{}, Options{Project: "proj", Runs: runs})
	for _, want := range []string{
		"4 runs, 2026-11-25 to 2026-11-26: 2 passed, 0 warned, 1 failed, 1 could not run",
		`<td>stop hook</td><td><span class="t-pass">pass</span></td><td class="num">9.1s</td>`,
		`<td><span class="t-pass">pass</span></td><td class="num">6.1s</td><td></td>`,
		`<td><span class="t-fail">fail</span></td><td class="num">4.2s</td><td>test (fail)</td>`,
		`<td>tsc (error)</td>`,
		`<td>test</td><td class="num">2</td><td class="num">4.0s</td><td class="num">4.0s – 6.0s</td>`,
		"No stop-hook decision is recorded yet",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "No run is recorded yet") {
		t.Error("the page says no run is recorded")
	}
	// The newest run first; two weeks of days, the runs' two days among them.
	if strings.Index(page, "r3") > strings.Index(page, "r1") {
		t.Error("the last runs are not listed newest first")
	}
	if n := strings.Count(page, `<div class="day"`); n != 14 {
		t.Errorf("%d days drawn, want 14", n)
	}
}

// Ninety days of runs read as ninety days, labelled about every week, not every day.
func TestRunsChartOnNinetyDays(t *testing.T) {
	var runs []runlog.Record
	for d := 89; d >= 0; d-- {
		runs = append(runs, runlog.Record{Time: now.AddDate(0, 0, -d), Verdict: "pass"})
	}
	page := render(t, stophook.History{}, Options{Runs: runs})
	if n := strings.Count(page, `<div class="day"`); n != 90 {
		t.Errorf("%d days drawn, want 90", n)
	}
	if n := strings.Count(page, `<span>11-`) + strings.Count(page, `<span>10-`) + strings.Count(page, `<span>09-`) + strings.Count(page, `<span>08-`); n < 10 || n > 16 {
		t.Errorf("%d day labels, want about 15", n)
	}
	if !strings.Contains(page, "<span>11-26</span></div>") {
		t.Error("today is not the last label")
	}
}

// A test the stop hook found flaky is counted on the page, the most often first.
func TestPageCountsFlakyTests(t *testing.T) {
	flakyOnce := stophook.GateOutcome{Name: "test", Status: "fail", Blame: "flaky", Flaky: []string{"m::TestA", "m::TestB"}}
	flakyAgain := stophook.GateOutcome{Name: "test", Status: "fail", Blame: "flaky", Flaky: []string{"m::TestB"}}
	h := stophook.History{Entries: []stophook.HistoryEntry{
		{Time: now.Add(-2 * time.Hour), Host: "claude", Decision: "allow", Why: "warn", Gates: []stophook.GateOutcome{flakyOnce}},
		{Time: now.Add(-time.Hour), Host: "claude", Decision: "allow", Why: "warn", Gates: []stophook.GateOutcome{flakyAgain}},
	}}
	page := render(t, h, Options{})
	b := strings.Index(page, `<td class="mono">test: m::TestB</td><td class="num">2</td>`)
	a := strings.Index(page, `<td class="mono">test: m::TestA</td><td class="num">1</td>`)
	if a < 0 || b < 0 || b > a {
		t.Errorf("flaky tests not counted, most often first:\n%s", page)
	}
	if strings.Contains(render(t, stophook.History{}, Options{}), "when run again alone") {
		t.Error("a history without flaky tests lists them")
	}
}
