package historypage

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

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
		"Stop-hook history of proj",
		"4 decisions, 2026-11-24 to 2026-11-25: 2 blocks, 1 passes, 1 releases, 0 not judged",
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
	// Three days, the 24th to today, the 26th: the day without a decision shows as one.
	if n := strings.Count(page, `<div class="day"`); n != 3 {
		t.Errorf("%d days drawn, want 3", n)
	}
}

// However long the history, the page is bounded: 30 days, the capped lists, and a note for each
// cap.
func TestPageIsBounded(t *testing.T) {
	var entries []stophook.HistoryEntry
	for i := range 8000 {
		e := stophook.HistoryEntry{
			Time: now.Add(-time.Duration(8000-i) * 15 * time.Minute), Host: "claude", Session: fmt.Sprintf("s%d", i),
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
		"The per-day chart shows the last 30 days;",
		"Durations are drawn for the 12 slowest of 14 gates.",
		"the newest 20 are listed.",
		"releases; the newest 50 are listed.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for what, want := range map[string]int{`<div class="day"`: 30, `<div class="range">`: 12, `<strong class="t-fail">no pass since</strong>`: 50} {
		if n := strings.Count(page, what); n != want {
			t.Errorf("%d of %q, want %d", n, what, want)
		}
	}
	// Each gate's picture is of its last 30 runs.
	if n := strings.Count(page, `<b class="`) - 4*30; n != 12*30 {
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
	for _, field := range []string{"project", "check", "host", "session", "message", "failed", "gate", "state", "status"} {
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
