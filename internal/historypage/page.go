// Package historypage draws the history of runs and stops as one self-contained HTML page: runs
// and decisions per day, the last runs and what failed in them, the gates that blocked most, each
// gate's durations, flaky gates and the agents let go with gates failing. Bounded whatever the history holds: it reads a capped number of entries and
// shows capped lists, and says so on the page.
package historypage

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/runlog"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The page's bounds. The history file is itself capped (stophook), so these only keep the page
// readable and its size bounded if that cap grows.
const (
	maxEntries      = 5000 // the newest decisions the page reads
	maxBlockers     = 10   // gates in "blocked most"
	maxTimedGates   = 12   // gates whose durations are drawn, the slowest first
	maxRunsPerGate  = 30   // the latest durations each gate's picture uses
	maxFlaky        = 20   // flaky gates listed
	maxFlakyResults = 24   // results in order shown for each
	maxReleased     = 50   // releases listed, newest first
)

//go:embed history.html
var files embed.FS

// page is parsed at first use: every gauntlet call but `status --html` would pay for it at
// start-up.
var page = sync.OnceValue(func() *template.Template {
	// count says "1 block", "2 blocks": the page's tallies are read as sentences.
	return template.Must(template.New("history.html").Funcs(template.FuncMap{"count": termtext.Count}).ParseFS(files, "history.html"))
})

// Options are what the page needs besides the history.
type Options struct {
	Project string    // the project's directory, in the title
	Now     time.Time // today, the per-day chart's last day
	// Describe says in words why a stop was decided as it was, as gauntlet status prints it.
	Describe func(stophook.HistoryEntry) string
	// CheckNote says how the history differs from what gauntlet wrote; "" when it does not.
	CheckNote string
	// Runs are the recorded runs (gauntlet run and the stop hook's alike), oldest first.
	Runs []runlog.Record
}

// Write draws the history as one HTML page.
func Write(w io.Writer, h stophook.History, opts Options) error {
	var buf bytes.Buffer
	if err := page().Execute(&buf, build(h, opts)); err != nil {
		return fmt.Errorf("write history page: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write history page: %w", err)
	}
	return nil
}

type view struct {
	CSS        template.CSS
	Project    string
	Generated  string
	Total      int
	From, To   string
	Caps       []string
	CheckNote  string
	Released   []released
	Days       []day
	DayLabels  []string
	Runs       runsView
	Counts     counts
	Blockers   []blocker
	Timed      []timed
	Flaky      []flaky
	FlakyTests []flakyTest
	HasOutcome bool
}

// flakyTest is a test the stop hook found flaky (failed, then passed when run again alone), and
// how often.
type flakyTest struct {
	Test  string
	Times int
}

type counts struct{ Blocks, Passes, Releases, Other int }

type day struct {
	counts counts
	// Heights are percent of the busiest day's total.
	Block, Pass, Release, Other float64
	Title                       string
}

type blocker struct {
	Gate  string
	Count int
	Width float64
}

type timed struct {
	Gate                  string
	Runs                  int
	Median, Low, High     string
	MedianAt, LowAt, Span float64
	Spark                 []spark
}

type spark struct {
	Height float64
	Status string
	Title  string
}

type flaky struct {
	Gate, State, Last, Statuses string
	Passes, Failures            int
	results                     []string // the latest, at most maxFlakyResults
	dropped                     bool     // older results were dropped from results

}

type released struct {
	Time, Host, Session, Reason string
	Unresolved                  bool
}

func build(h stophook.History, opts Options) view {
	v := view{
		CSS:       report.PageCSS(),
		Project:   termtext.Line(opts.Project),
		Generated: opts.Now.UTC().Format("2006-01-02 15:04 UTC"),
		CheckNote: termtext.Line(opts.CheckNote),
	}
	entries := h.Entries
	if len(entries) > maxEntries {
		v.Caps = append(v.Caps, fmt.Sprintf("The history holds %d decisions; the page reads the newest %d.", len(entries), maxEntries))
		entries = entries[len(entries)-maxEntries:]
	}
	v.Total = len(entries)
	if len(entries) > 0 {
		v.From = entries[0].Time.UTC().Format("2006-01-02")
		v.To = entries[len(entries)-1].Time.UTC().Format("2006-01-02")
	}
	v.Days, v.DayLabels, v.Counts, v.Caps = perDay(entries, opts.Now, v.Caps)
	v.Runs, v.Caps = runsOf(opts.Runs, opts.Now, v.Caps)
	v.Blockers = blockers(entries)
	v.Timed, v.Caps = durations(entries, opts.Runs, v.Caps)
	v.Flaky, v.Caps = flakyGates(entries, v.Caps)
	v.FlakyTests = flakyTests(h)
	v.Released, v.Caps = releases(h, entries, opts, v.Caps)
	for _, e := range entries {
		if len(e.Gates) > 0 {
			v.HasOutcome = true
			break
		}
	}
	return v
}

// kind sorts a decision into the chart's four: a block, a pass (warnings included), a release
// (let go with gates failing or not run), or anything else (not judged).
func kind(e stophook.HistoryEntry) string {
	switch {
	case e.Decision == "block":
		return "block"
	case e.Released():
		return "release"
	case e.Why == stophook.WhyPass || e.Why == stophook.WhyCached || e.Why == stophook.WhyWarn:
		return "pass"
	default:
		return "other"
	}
}

func (c *counts) add(k string) {
	switch k {
	case "block":
		c.Blocks++
	case "release":
		c.Releases++
	case "pass":
		c.Passes++
	default:
		c.Other++
	}
}

func (c counts) total() int { return c.Blocks + c.Passes + c.Releases + c.Other }

// perDay counts the decisions of each day (UTC) of the chart (chartDays: two weeks to ninety days,
// ending today), empty days included, so that a quiet week shows as one.
func perDay(entries []stophook.HistoryEntry, now time.Time, caps []string) ([]day, []string, counts, []string) {
	if len(entries) == 0 {
		return nil, nil, counts{}, caps
	}
	times := make([]time.Time, len(entries))
	for i, e := range entries {
		times[i] = e.Time
	}
	first, n, labels := chartDays(times, now)
	if older := olderThan(entries, first); older > 0 {
		caps = append(caps, fmt.Sprintf("The per-day chart shows the last %d days; %d older decisions are counted in the other pictures only.", n, older))
	}
	days := make([]day, n)
	var all counts
	for _, e := range entries {
		k := kind(e)
		all.add(k)
		i := int(e.Time.UTC().Truncate(24*time.Hour).Sub(first) / (24 * time.Hour))
		if i >= 0 && i < n {
			days[i].counts.add(k)
		}
	}
	scaleDays(days, first)
	return days, labels, all, caps
}

// olderThan counts the decisions before a time.
func olderThan(entries []stophook.HistoryEntry, t time.Time) int {
	older := 0
	for _, e := range entries {
		if e.Time.UTC().Before(t) {
			older++
		}
	}
	return older
}

// scaleDays sets each day's heights, in percent of the busiest day's total, and its title; the
// first day is first.
func scaleDays(days []day, first time.Time) {
	busiest := 1
	for _, d := range days {
		busiest = max(busiest, d.counts.total())
	}
	pct := func(x int) float64 { return math.Round(float64(x)/float64(busiest)*1000) / 10 }
	for i := range days {
		c := days[i].counts
		days[i].Block, days[i].Pass, days[i].Release, days[i].Other = pct(c.Blocks), pct(c.Passes), pct(c.Releases), pct(c.Other)
		days[i].Title = fmt.Sprintf("%s: %s, %s, %s, %d not judged", first.AddDate(0, 0, i).Format("2006-01-02"),
			termtext.Count(c.Blocks, "block"), termtext.Count(c.Passes, "pass"), termtext.Count(c.Releases, "release"), c.Other)
	}
}

// blockers counts, for each gate, the blocks it was among the failing gates of.
func blockers(entries []stophook.HistoryEntry) []blocker {
	count := map[string]int{}
	for _, e := range entries {
		if e.Decision != "block" {
			continue
		}
		for _, g := range e.Failed {
			count[termtext.Line(g)]++
		}
	}
	out := make([]blocker, 0, len(count))
	for g, n := range count {
		out = append(out, blocker{Gate: g, Count: n})
	}
	slices.SortFunc(out, func(a, b blocker) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Gate, b.Gate)) })
	out = out[:min(len(out), maxBlockers)]
	for i := range out {
		out[i].Width = math.Round(float64(out[i].Count)/float64(out[0].Count)*1000) / 10
	}
	return out
}

// durations draws each gate's latest runs (cached answers and cancelled runs aside: they say
// nothing of how long the gate takes): the median, the spread from the 10th to the 90th
// percentile on a scale shared by all gates, and each run as a bar.
func durations(entries []stophook.HistoryEntry, records []runlog.Record, caps []string) ([]timed, []string) {
	runs := gateRuns(entries)
	runGates(runs, records)
	out := make([]timed, 0, len(runs))
	var longest int64 = 1
	for name, rs := range runs {
		t, high := timedOf(name, rs[max(0, len(rs)-maxRunsPerGate):])
		longest = max(longest, high)
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b timed) int { return cmp.Or(cmp.Compare(b.MedianAt, a.MedianAt), cmp.Compare(a.Gate, b.Gate)) })
	if len(out) > maxTimedGates {
		caps = append(caps, fmt.Sprintf("Durations are drawn for the %d slowest of %d gates.", maxTimedGates, len(out)))
		out = out[:maxTimedGates]
	}
	// One scale for all, in percent, so that the gates compare at a glance.
	for i := range out {
		out[i].MedianAt = math.Round(out[i].MedianAt/float64(longest)*1000) / 10
		out[i].LowAt = math.Round(out[i].LowAt/float64(longest)*1000) / 10
		out[i].Span = math.Round(out[i].Span/float64(longest)*1000) / 10
	}
	return out, caps
}

// gateRun is one run of a gate the durations draw.
type gateRun struct {
	ms     int64
	status string
	at     time.Time
}

// gateRuns is each gate's runs in order, cached answers and cancelled runs aside.
func gateRuns(entries []stophook.HistoryEntry) map[string][]gateRun {
	runs := map[string][]gateRun{}
	for _, e := range entries {
		for _, o := range e.Gates {
			if o.Cached || o.Status == string(gates.StatusCancelled) {
				continue
			}
			name := termtext.Line(o.Name)
			runs[name] = append(runs[name], gateRun{max(o.DurationMS, 0), termtext.Line(o.Status), e.Time})
		}
	}
	return runs
}

// timedOf is a gate's picture of its runs, its places in milliseconds until durations scales
// them, and its 90th percentile.
func timedOf(name string, rs []gateRun) (timed, int64) {
	ms := make([]int64, len(rs))
	for i, r := range rs {
		ms[i] = r.ms
	}
	slices.Sort(ms)
	t := timed{Gate: name, Runs: len(rs)}
	med, low, high := percentile(ms, 50), percentile(ms, 10), percentile(ms, 90)
	t.Median, t.Low, t.High = duration(med), duration(low), duration(high)
	t.MedianAt, t.LowAt, t.Span = float64(med), float64(low), float64(high-low)
	peak := max(ms[len(ms)-1], 1)
	for _, r := range rs {
		t.Spark = append(t.Spark, spark{
			Height: math.Max(2, math.Round(float64(r.ms)/float64(peak)*1000)/10),
			Status: r.status,
			Title:  fmt.Sprintf("%s: %s, %s", r.at.UTC().Format("2006-01-02 15:04"), r.status, duration(r.ms)),
		})
	}
	return t, high
}

// percentile of sorted values, by the nearest rank.
func percentile(sorted []int64, p int) int64 {
	i := (p*len(sorted) + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

func duration(ms int64) string { return report.FormatDuration(time.Duration(ms) * time.Millisecond) }

// flakyGates finds gates that passed and did not pass on the same state: the tree, the config
// and the environment alike (the state's fingerprint), so the gate's own result changed.
func flakyGates(entries []stophook.HistoryEntry, caps []string) ([]flaky, []string) {
	seen, order := tallyByState(entries)
	var out []flaky
	for _, k := range order {
		if f := seen[k]; f.Passes > 0 && f.Failures > 0 {
			out = append(out, f.withStatuses())
		}
	}
	slices.SortStableFunc(out, func(a, b flaky) int { return cmp.Compare(b.Last, a.Last) })
	if len(out) > maxFlaky {
		caps = append(caps, fmt.Sprintf("%d gate-and-state pairs changed their result; the newest %d are listed.", len(out), maxFlaky))
		out = out[:maxFlaky]
	}
	return out, caps
}

// stateGate is a gate on a state, by the state's fingerprint.
type stateGate struct{ state, gate string }

// tallyByState counts the passes and failures of each gate on each state, cached answers
// aside, and the pairs in the order they first appear.
func tallyByState(entries []stophook.HistoryEntry) (map[stateGate]*flaky, []stateGate) {
	seen := map[stateGate]*flaky{}
	var order []stateGate
	for _, e := range entries {
		if e.State == "" {
			continue
		}
		for _, o := range e.Gates {
			if o.Cached {
				continue
			}
			k := stateGate{termtext.Line(e.State), termtext.Line(o.Name)}
			f := seen[k]
			if f == nil {
				f = &flaky{Gate: k.gate, State: k.state}
				seen[k] = f
				order = append(order, k)
			}
			f.record(gates.Status(o.Status), e.Time)
		}
	}
	return seen, order
}

// flakyCounts says which results count as what: a pass (true) or a failure (false); the others
// (skipped, cancelled) do not count.
var flakyCounts = map[gates.Status]bool{
	gates.StatusPass: true,
	gates.StatusFail: false, gates.StatusWarn: false, gates.StatusError: false,
}

// record counts one result of the gate on its state, at, keeping the latest results in order.
func (f *flaky) record(status gates.Status, at time.Time) {
	pass, counts := flakyCounts[status]
	if !counts {
		return
	}
	if pass {
		f.Passes++
	} else {
		f.Failures++
	}
	f.Last = at.UTC().Format("2006-01-02 15:04")
	f.results = append(f.results, termtext.Line(string(status)))
	if len(f.results) > maxFlakyResults {
		f.results, f.dropped = f.results[1:], true
	}
}

// withStatuses is the gate with its results in order written out, an ellipsis first when older
// ones were dropped.
func (f *flaky) withStatuses() flaky {
	if f.dropped {
		f.Statuses = "… "
	}
	f.Statuses += strings.Join(f.results, " ") + " "
	return *f
}

// releases lists the stops let go with gates failing or not run, newest first, the anchor's
// among them (a release whose line was deleted is still shown), marking those no pass of the
// same session has followed.
func releases(h stophook.History, entries []stophook.HistoryEntry, opts Options, caps []string) ([]released, []string) {
	type key struct {
		at           int64
		session, mac string
	}
	keyOf := func(e stophook.HistoryEntry) key { return key{e.Time.UnixNano(), e.Session, e.MAC} }
	// Judged on the entries the page reads, so that the work stays bounded with them.
	unresolved := map[key]bool{}
	for _, u := range (stophook.History{Entries: entries, Check: h.Check}).Unresolved() {
		unresolved[keyOf(u)] = true
	}
	var all []stophook.HistoryEntry
	listed := map[key]bool{}
	for _, e := range entries {
		if e.Released() {
			all = append(all, e)
			listed[keyOf(e)] = true
		}
	}
	for _, u := range h.Check.Released {
		if k := keyOf(u); !listed[k] && unresolved[k] {
			all = append(all, u)
			listed[k] = true
		}
	}
	slices.SortStableFunc(all, func(a, b stophook.HistoryEntry) int { return b.Time.Compare(a.Time) })
	if len(all) > maxReleased {
		caps = append(caps, fmt.Sprintf("%d releases; the newest %d are listed.", len(all), maxReleased))
		all = all[:maxReleased]
	}
	describe := opts.Describe
	if describe == nil {
		describe = func(e stophook.HistoryEntry) string { return e.Why }
	}
	out := make([]released, 0, len(all))
	for _, e := range all {
		out = append(out, released{
			Time:       e.Time.UTC().Format("2006-01-02 15:04:05"),
			Host:       termtext.Line(e.Host),
			Session:    termtext.Line(cmp.Or(e.Session, "-")),
			Reason:     termtext.Line(describe(e)),
			Unresolved: unresolved[keyOf(e)],
		})
	}
	return out, caps
}

// flakyTests lists the tests the stop hook found flaky, the most often first, at most maxFlaky.
func flakyTests(h stophook.History) []flakyTest {
	var out []flakyTest
	for test, n := range h.FlakyCounts() {
		out = append(out, flakyTest{Test: test, Times: n})
	}
	slices.SortFunc(out, func(a, b flakyTest) int {
		if c := cmp.Compare(b.Times, a.Times); c != 0 {
			return c
		}
		return cmp.Compare(a.Test, b.Test)
	})
	return out[:min(len(out), maxFlaky)]
}
