package report

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func shardReport(shard, started string, ms int64, gs ...GateReport) Report {
	return Report{SchemaVersion: 1, RunID: "id-" + shard, StartedAt: started, DurationMS: ms,
		ConfigDigest: "abc", Shard: shard, Gates: gs}
}

func gate(name string, s gates.Status, ms int64) GateReport {
	return GateReport{Name: name, Kind: gates.KindCheck, Status: s, DurationMS: ms}
}

func TestMergeCombinesShards(t *testing.T) {
	in := []MergeInput{
		{"s1.json", shardReport("1/3", "2026-11-21T09:30:00Z", 4000, gate("lint", gates.StatusPass, 3900), gate("off", gates.StatusSkipped, 0))},
		{"s2.json", shardReport("2/3", "2026-11-21T09:30:02Z", 5000, gate("test", gates.StatusError, 4800))},
		{"s3.json", shardReport("3/3", "2026-11-21T09:29:59Z", 1000, gate("vet", gates.StatusFail, 900), gate("x", gates.StatusWarn, 10))},
	}
	got, err := Merge(in, []string{"vet", "test", "lint", "off"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got.Gates {
		names = append(names, g.Name)
	}
	if want := []string{"vet", "test", "lint", "off", "x"}; !slices.Equal(names, want) {
		t.Errorf("gates %v, want config order then the rest: %v", names, want)
	}
	if got.Verdict != gates.VerdictFail {
		t.Errorf("verdict %s, want fail (fail wins over error)", got.Verdict)
	}
	if got.StartedAt != "2026-11-21T09:29:59Z" {
		t.Errorf("started_at %s, want the earliest start", got.StartedAt)
	}
	// Wall time: 09:29:59 to 09:30:07 (s2 ends last).
	if got.DurationMS != 8000 {
		t.Errorf("duration_ms %d, want the wall time 8000", got.DurationMS)
	}
	if got.ShardsDurationMS != 10000 {
		t.Errorf("shards_duration_ms %d, want the sum 10000", got.ShardsDurationMS)
	}
	if got.ConfigDigest != "abc" || got.Shard != "" {
		t.Errorf("config_digest %q shard %q", got.ConfigDigest, got.Shard)
	}
	again, _ := Merge(in, []string{"vet", "test", "lint", "off"})
	if again.RunID != got.RunID || !strings.HasPrefix(got.RunID, "20261121T092959Z-") {
		t.Errorf("run ids %q and %q: want one stable id from the start time", got.RunID, again.RunID)
	}
}

func TestMergeVerdictError(t *testing.T) {
	in := []MergeInput{
		{"a", shardReport("1/2", "2026-11-21T09:30:00Z", 1, gate("a", gates.StatusPass, 1))},
		{"b", shardReport("2/2", "2026-11-21T09:30:00Z", 1, gate("b", gates.StatusError, 1))},
	}
	got, err := Merge(in, nil)
	if err != nil || got.Verdict != gates.VerdictError {
		t.Errorf("verdict %s, %v; want error", got.Verdict, err)
	}
}

func TestMergeSkippedInOneRunInAnother(t *testing.T) {
	in := []MergeInput{
		{"a", Report{SchemaVersion: 1, StartedAt: "2026-11-21T09:30:00Z", Gates: []GateReport{gate("t", gates.StatusSkipped, 0)}}},
		{"b", Report{SchemaVersion: 1, StartedAt: "2026-11-21T09:30:00Z", Gates: []GateReport{gate("t", gates.StatusFail, 5)}}},
		{"c", Report{SchemaVersion: 1, StartedAt: "2026-11-21T09:30:00Z", Gates: []GateReport{gate("t", gates.StatusSkipped, 0)}}},
	}
	got, err := Merge(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Gates) != 1 || got.Gates[0].Status != gates.StatusFail {
		t.Errorf("gates %+v, want the one run", got.Gates)
	}
}

func TestMergeRefuses(t *testing.T) {
	cases := []struct {
		name string
		in   []MergeInput
		want string
	}{
		{"overlap", []MergeInput{
			{"s1.json", shardReport("1/2", "2026-11-21T09:30:00Z", 1, gate("lint", gates.StatusPass, 1))},
			{"s2.json", shardReport("2/2", "2026-11-21T09:30:00Z", 1, gate("lint", gates.StatusFail, 1))},
		}, `gate "lint" ran in both s1.json and s2.json`},
		{"config", []MergeInput{
			{"s1.json", shardReport("1/2", "2026-11-21T09:30:00Z", 1)},
			{"s2.json", func() Report { r := shardReport("2/2", "2026-11-21T09:30:00Z", 1); r.ConfigDigest = "def"; return r }()},
		}, "reports of different configs: s1.json (config abc) vs s2.json (config def)"},
		{"missing shard", []MergeInput{
			{"s1.json", shardReport("1/3", "2026-11-21T09:30:00Z", 1)},
			{"s3.json", shardReport("3/3", "2026-11-21T09:30:00Z", 1)},
		}, "shard 2/3 missing"},
		{"twice", []MergeInput{
			{"s1.json", shardReport("1/2", "2026-11-21T09:30:00Z", 1)},
			{"again.json", shardReport("1/2", "2026-11-21T09:30:00Z", 1)},
			{"s2.json", shardReport("2/2", "2026-11-21T09:30:00Z", 1)},
		}, "shard 1/2 given twice: s1.json, again.json"},
		{"other split", []MergeInput{
			{"s1.json", shardReport("1/2", "2026-11-21T09:30:00Z", 1)},
			{"t2.json", shardReport("2/3", "2026-11-21T09:30:00Z", 1)},
		}, "t2.json is shard 2/3, of another split than 2 shards"},
		{"none", nil, "no reports given"},
		// A planted N would cost a line per missing shard (or never end, near MaxInt).
		{"huge split", []MergeInput{
			{"h.json", shardReport("1/50000000", "2026-11-21T09:30:00Z", 1)},
		}, `h.json: shard "1/50000000" is not K/N`},
	}
	for _, c := range cases {
		_, err := Merge(c.in, nil)
		var me *MergeError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a MergeError containing %q", c.name, err, c.want)
		}
	}
}
