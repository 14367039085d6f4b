package historypage

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/runlog"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The runs' bounds, as the decisions'.
const (
	maxRuns       = 2000 // the newest runs the page reads
	maxRunsListed = 20   // runs in "the last runs"
	minDays       = 14   // a per-day chart spans at least two weeks, so that one day reads as one
	maxChartDays  = 90   // and at most ninety, ending today
)

// runsView is what the page shows of the runs.
type runsView struct {
	Total                   int
	Pass, Warn, Fail, Error int
	From, To                string
	Days                    []runDay
	Labels                  []string
	Last                    []runRow
}

// runDay is one day of the runs chart; its heights are percent of the busiest day's runs.
type runDay struct {
	Pass, Warn, Fail, Error float64
	Title                   string
}

// runRow is one run in the list of the last runs.
type runRow struct {
	Time, Verdict, Took, Failed, RunID, By string
}

// runsOf draws the runs: their count by verdict, a chart per day, and the newest listed with
// what failed in each.
func runsOf(runs []runlog.Record, now time.Time, caps []string) (runsView, []string) {
	if len(runs) > maxRuns {
		caps = append(caps, fmt.Sprintf("The run history holds %d runs; the page reads the newest %d.", len(runs), maxRuns))
		runs = runs[len(runs)-maxRuns:]
	}
	v := runsView{Total: len(runs)}
	if len(runs) == 0 {
		return v, caps
	}
	v.From, v.To = runs[0].Time.UTC().Format("2006-01-02"), runs[len(runs)-1].Time.UTC().Format("2006-01-02")
	times := make([]time.Time, len(runs))
	var all verdicts
	for i, r := range runs {
		times[i] = r.Time
		all.add(r.Verdict)
	}
	v.Pass, v.Warn, v.Fail, v.Error = all.pass, all.warn, all.fail, all.err
	first, n, labels := chartDays(times, now)
	v.Labels = labels
	v.Days = runDays(runs, first, n)
	for i := len(runs) - 1; i >= 0 && len(v.Last) < maxRunsListed; i-- {
		v.Last = append(v.Last, runRowOf(runs[i]))
	}
	return v, caps
}

// chartDays is a per-day chart's first day (UTC), its number of days, and its labels: from the
// oldest time (or two weeks before today, whichever is earlier) to today, at most ninety days.
// Labels are spaced so that about fifteen are shown whatever the span; the others are "".
func chartDays(times []time.Time, now time.Time) (time.Time, int, []string) {
	last := now.UTC().Truncate(24 * time.Hour)
	first := last.AddDate(0, 0, -(minDays - 1))
	for _, t := range times {
		d := t.UTC().Truncate(24 * time.Hour)
		first = minTime(first, d)
		if d.After(last) {
			last = d
		}
	}
	first = maxTime(first, last.AddDate(0, 0, -(maxChartDays-1)))
	n := int(last.Sub(first)/(24*time.Hour)) + 1
	every := max(1, (n+14)/15)
	labels := make([]string, n)
	for i := range labels {
		if (n-1-i)%every == 0 {
			labels[i] = first.AddDate(0, 0, i).Format("01-02")
		}
	}
	return first, n, labels
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// verdicts counts runs by verdict; a verdict other than pass, warn and fail could not run.
type verdicts struct{ pass, warn, fail, err int }

func (c *verdicts) add(verdict string) {
	switch verdict {
	case "pass":
		c.pass++
	case "warn":
		c.warn++
	case "fail":
		c.fail++
	default:
		c.err++
	}
}

func (c verdicts) total() int { return c.pass + c.warn + c.fail + c.err }

// runDays counts each day's runs by verdict and scales them to the busiest day.
func runDays(runs []runlog.Record, first time.Time, n int) []runDay {
	counts := make([]verdicts, n)
	busiest := 1
	for _, r := range runs {
		i := int(r.Time.UTC().Truncate(24*time.Hour).Sub(first) / (24 * time.Hour))
		if i < 0 || i >= n {
			continue
		}
		counts[i].add(r.Verdict)
		busiest = max(busiest, counts[i].total())
	}
	pct := func(x int) float64 { return math.Round(float64(x)/float64(busiest)*1000) / 10 }
	days := make([]runDay, n)
	for i, c := range counts {
		days[i] = runDay{Pass: pct(c.pass), Warn: pct(c.warn), Fail: pct(c.fail), Error: pct(c.err),
			Title: fmt.Sprintf("%s: %s: %d passed, %d warned, %d failed, %d could not run",
				first.AddDate(0, 0, i).Format("2006-01-02"), termtext.Count(c.total(), "run"), c.pass, c.warn, c.fail, c.err)}
	}
	return days
}

// runRowOf is a run's line: when, its verdict, how long it took and the gates that did not pass.
func runRowOf(r runlog.Record) runRow {
	var failed []string
	for _, g := range r.Gates {
		if g.Status == "fail" || g.Status == "error" {
			failed = append(failed, termtext.Line(g.Name)+" ("+termtext.Line(g.Status)+")")
		}
	}
	return runRow{
		Time:    r.Time.UTC().Format("2006-01-02 15:04:05"),
		Verdict: termtext.Line(cmp.Or(r.Verdict, "-")),
		Took:    duration(r.DurationMS),
		Failed:  strings.Join(failed, ", "),
		RunID:   termtext.Line(r.RunID),
		By:      map[bool]string{true: "stop hook", false: "run"}[r.Stop],
	}
}

// runGates adds the runs' gates to the gates' runs the durations draw, in time order with the
// stops' (cached answers and cancelled runs aside, as there).
func runGates(into map[string][]gateRun, runs []runlog.Record) {
	for _, r := range runs {
		if r.Stop {
			continue // the stop's history entry has its gates already
		}
		for _, g := range r.Gates {
			if g.Cached || g.Status == "cancelled" || g.Status == "skipped" {
				continue
			}
			name := termtext.Line(g.Name)
			into[name] = append(into[name], gateRun{max(g.DurationMS, 0), termtext.Line(g.Status), r.Time})
		}
	}
	for name := range into {
		slices.SortStableFunc(into[name], func(a, b gateRun) int { return a.at.Compare(b.at) })
	}
}
