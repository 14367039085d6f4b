package report

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// MergeInput is one report to merge and where it came from, for messages.
type MergeInput struct {
	Source string
	Report Report
}

// MergeError means the reports cannot honestly be combined into one verdict.
type MergeError struct{ Problems []string }

func (e *MergeError) Error() string {
	return "cannot merge the reports: " + strings.Join(e.Problems, "; ")
}

// Merge combines the reports of the shards of one run into the report of the whole: every gate
// once, the verdict by the same rule as a single run, the wall time from the first start to the
// last end. It refuses reports of different configs, a gate that ran in two of them, and a split
// with a shard missing or given twice, since each would make the verdict describe something that
// did not happen. order (the config's gate order, when known) decides where gates go; gates it
// does not name follow by name.
func Merge(inputs []MergeInput, order []string) (Report, error) {
	if len(inputs) == 0 {
		return Report{}, &MergeError{[]string{"no reports given"}}
	}
	var problems []string
	problems = append(problems, checkConfigs(inputs)...)
	problems = append(problems, checkShards(inputs)...)
	byName, overlaps := placeGates(inputs)
	problems = append(problems, overlaps...)
	span, badTimes := spanOf(inputs)
	problems = append(problems, badTimes...)
	if len(problems) > 0 {
		return Report{}, &MergeError{problems}
	}

	names := gateOrder(byName, order)
	out := Report{
		SchemaVersion:    SchemaVersion,
		RunID:            mergedRunID(span.start, span.runIDs),
		StartedAt:        span.start.UTC().Format(time.RFC3339),
		DurationMS:       span.end.Sub(span.start).Milliseconds(),
		Gates:            make([]GateReport, 0, len(names)),
		ConfigDigest:     inputs[0].Report.ConfigDigest,
		ShardsDurationMS: span.machine,
	}
	results := make([]gates.Result, 0, len(names))
	for _, n := range names {
		g := byName[n].gate
		out.Gates = append(out.Gates, g)
		results = append(results, gates.Result{Name: g.Name, Status: g.Status})
	}
	out.Setup = mergeSetup(inputs)
	for _, s := range out.Setup {
		results = append(results, gates.Result{Name: s.Name, Status: s.Status})
	}
	out.Integrity = mergeIntegrity(inputs)
	out.Verdict = gates.VerdictWithIntegrity(gates.VerdictOf(results), out.Integrity)
	return out, nil
}

// placedGate is a gate of the merged report and the report it came from.
type placedGate struct {
	gate   GateReport
	source string
}

// placeGates takes every gate from the report it ran in: a gate skipped in one shard and run in
// another is the run one. The problems name gates that ran in two reports.
func placeGates(inputs []MergeInput) (map[string]placedGate, []string) {
	var problems []string
	byName := map[string]placedGate{}
	for _, in := range inputs {
		for _, g := range in.Report.Gates {
			prev, seen := byName[g.Name]
			switch {
			case !seen, prev.gate.Status == gates.StatusSkipped && g.Status != gates.StatusSkipped:
				byName[g.Name] = placedGate{g, in.Source}
			case g.Status != gates.StatusSkipped:
				problems = append(problems, fmt.Sprintf("gate %q ran in both %s and %s (overlapping shards)", g.Name, prev.source, in.Source))
			}
		}
	}
	return byName, problems
}

// runSpan is the wall time of the shards, from the first start to the last end, their run IDs
// and the machine time they took together.
type runSpan struct {
	start, end time.Time
	runIDs     []string
	machine    int64
}

// spanOf measures the shards' span; the problems name reports whose start is not a time.
func spanOf(inputs []MergeInput) (runSpan, []string) {
	var span runSpan
	var problems []string
	for i, in := range inputs {
		s, err := time.Parse(time.RFC3339, in.Report.StartedAt)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: started_at %q is not a time", in.Source, in.Report.StartedAt))
			continue
		}
		if i == 0 || s.Before(span.start) {
			span.start = s
		}
		if e := s.Add(in.Report.Duration()); e.After(span.end) {
			span.end = e
		}
		span.runIDs = append(span.runIDs, in.Report.RunID)
		span.machine += in.Report.DurationMS
	}
	return span, problems
}

// gateOrder is the order of the merged gates: those order names as it orders them, then the
// others by name.
func gateOrder(byName map[string]placedGate, order []string) []string {
	rank := make(map[string]int, len(order))
	for i, n := range order {
		rank[n] = i
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return compareRanked(rank, a, b) })
	return names
}

// compareRanked compares two gates by their rank, known gates first, else by name.
func compareRanked(rank map[string]int, a, b string) int {
	ra, okA := rank[a]
	rb, okB := rank[b]
	switch {
	case okA && okB:
		return cmp.Compare(ra, rb)
	case okA:
		return -1
	case okB:
		return 1
	}
	return strings.Compare(a, b)
}

// mergeIntegrity is the integrity findings of every report, each once.
func mergeIntegrity(inputs []MergeInput) []gates.IntegrityFinding {
	var out []gates.IntegrityFinding
	for _, in := range inputs {
		for _, f := range in.Report.Integrity {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// mergeSetup combines the setup steps of the shards. Each shard runs the steps its own gates
// need, so a step may have run in several: it is listed once, with the result that weighs most
// on the verdict, and the gates of every shard that needed it.
func mergeSetup(inputs []MergeInput) []GateReport {
	var out []GateReport
	at := map[string]int{}
	for _, in := range inputs {
		for _, s := range in.Report.Setup {
			i, seen := at[s.Name]
			if !seen {
				at[s.Name] = len(out)
				out = append(out, s)
				continue
			}
			needed := slices.Concat(out[i].NeededBy, s.NeededBy)
			if setupWeight(s.Status) > setupWeight(out[i].Status) {
				out[i] = s
			}
			out[i].NeededBy = slices.Compact(slices.Sorted(slices.Values(needed)))
		}
	}
	return out
}

func setupWeight(s gates.Status) int {
	return slices.Index([]gates.Status{gates.StatusSkipped, gates.StatusPass, gates.StatusWarn, gates.StatusCancelled, gates.StatusError, gates.StatusFail}, s)
}

// checkConfigs names the reports whose config differs from the first report's.
func checkConfigs(inputs []MergeInput) []string {
	groups := map[string][]string{}
	var digests []string
	for _, in := range inputs {
		d := in.Report.ConfigDigest
		if _, ok := groups[d]; !ok {
			digests = append(digests, d)
		}
		groups[d] = append(groups[d], in.Source)
	}
	if len(digests) < 2 {
		return nil
	}
	parts := make([]string, len(digests))
	for i, d := range digests {
		label := "no config digest"
		if d != "" {
			label = "config " + d[:min(12, len(d))]
		}
		parts[i] = fmt.Sprintf("%s (%s)", strings.Join(groups[d], ", "), label)
	}
	return []string{"reports of different configs: " + strings.Join(parts, " vs ")}
}

// checkShards makes sure that sharded reports make up one whole split: same N, each K once.
func checkShards(inputs []MergeInput) []string {
	var problems []string
	byK := map[int][]string{}
	total := 0
	sharded := 0
	for _, in := range inputs {
		if in.Report.Shard == "" {
			continue
		}
		sharded++
		k, n, ok := parseShard(in.Report.Shard)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: shard %q is not K/N", in.Source, in.Report.Shard))
			continue
		}
		if total != 0 && n != total {
			problems = append(problems, fmt.Sprintf("%s is shard %s, of another split than %d shards", in.Source, in.Report.Shard, total))
			continue
		}
		total = n
		byK[k] = append(byK[k], in.Source)
	}
	if sharded == 0 || len(problems) > 0 {
		return problems
	}
	return wholeSplit(byK, total)
}

// wholeSplit makes sure every shard K of a split of total was given once (byK, the reports of
// each).
func wholeSplit(byK map[int][]string, total int) []string {
	var problems, missing []string
	for k := 1; k <= total; k++ {
		switch srcs := byK[k]; {
		case len(srcs) == 0:
			// Also beside an unsharded report: it may well lack the missing shard's gates.
			missing = append(missing, strconv.Itoa(k))
		case len(srcs) > 1:
			problems = append(problems, fmt.Sprintf("shard %d/%d given twice: %s", k, total, strings.Join(srcs, ", ")))
		}
	}
	switch {
	case len(missing) == 1:
		problems = append(problems, fmt.Sprintf("shard %s/%d missing (its gates would go unreported)", missing[0], total))
	case len(missing) > 1:
		problems = append(problems, fmt.Sprintf("shards %s of %d missing (their gates would go unreported)", strings.Join(missing, ", "), total))
	}
	return problems
}

// maxShards is shard.MaxShards (which imports this package): a report naming more shards was not
// written by gauntlet, and would cost a line per missing shard.
const maxShards = 256

func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	k, errK := strconv.Atoi(ks)
	n, errN := strconv.Atoi(ns)
	return k, n, found && errK == nil && errN == nil && k >= 1 && k <= n && n <= maxShards
}

// mergedRunID looks like a run id (the start time and four hex digits) and is derived from the
// shards' ids, so that merging the same reports twice gives the same report.
func mergedRunID(start time.Time, ids []string) string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\x00")))
	return start.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(sum[:2])
}
