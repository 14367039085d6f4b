package shard

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func gatesNamed(names ...string) []Gate {
	gs := make([]Gate, len(names))
	for i, n := range names {
		gs[i] = Gate{Name: n}
	}
	return gs
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestSplitKnownDurations(t *testing.T) {
	gs := gatesNamed("a", "b", "c", "d", "e", "f")
	tm := Timings{"a": ms(10), "b": ms(70), "c": ms(30), "d": ms(40), "e": ms(50), "f": ms(20)}
	p := Split(gs, tm, 3)
	// LPT: b70->1, e50->2, d40->3, c30->3(70), f20->2(70), a10->1(80).
	want := [][]string{{"a", "b"}, {"e", "f"}, {"c", "d"}}
	if !reflect.DeepEqual(p.Shards, want) {
		t.Errorf("shards = %v, want %v", p.Shards, want)
	}
	if got := p.Longest(); got != ms(80) {
		t.Errorf("longest = %v, want 80ms", got)
	}
	if got := p.Total(); got != ms(220) {
		t.Errorf("total = %v, want 220ms", got)
	}
	if len(p.Unknown) != 0 {
		t.Errorf("unknown = %v, want none", p.Unknown)
	}
}

func TestSplitNothingKnownIsRoundRobin(t *testing.T) {
	gs := gatesNamed("a", "b", "c", "d", "e")
	p := Split(gs, nil, 2)
	want := [][]string{{"a", "c", "e"}, {"b", "d"}}
	if !reflect.DeepEqual(p.Shards, want) {
		t.Errorf("shards = %v, want round-robin %v", p.Shards, want)
	}
	if !slices.Equal(p.Unknown, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("unknown = %v", p.Unknown)
	}
}

func TestSplitUnknownGetsMedianAndIdleCostsNothing(t *testing.T) {
	gs := []Gate{{Name: "slow"}, {Name: "new"}, {Name: "off", Idle: true}, {Name: "x"}, {Name: "y"}}
	tm := Timings{"slow": ms(100), "x": ms(10), "y": ms(30), "off": ms(1000)}
	p := Split(gs, tm, 2)
	if p.Estimate["new"] != ms(30) {
		t.Errorf("estimate of an unknown gate = %v, want the median 30ms", p.Estimate["new"])
	}
	if p.Estimate["off"] != 0 {
		t.Errorf("estimate of an idle gate = %v, want 0", p.Estimate["off"])
	}
	// slow100->1, new30->2, y30->2(60), x10->2(70), off0->2? no: loads 100 vs 70 -> 2.
	want := [][]string{{"slow"}, {"new", "off", "x", "y"}}
	if !reflect.DeepEqual(p.Shards, want) {
		t.Errorf("shards = %v, want %v", p.Shards, want)
	}
}

func TestSplitEveryGateOnceAndDeterministic(t *testing.T) {
	var gs []Gate
	tm := Timings{}
	for i := range 40 {
		name := string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		gs = append(gs, Gate{Name: name, Idle: i%7 == 0})
		if i%3 != 0 {
			tm[name] = ms((i * 37) % 500)
		}
	}
	for n := 1; n <= 9; n++ {
		p := Split(gs, tm, n)
		if !reflect.DeepEqual(p, Split(gs, tm, n)) {
			t.Fatalf("n=%d: two splits of the same input differ", n)
		}
		seen := map[string]int{}
		for _, s := range p.Shards {
			for _, g := range s {
				seen[g]++
			}
		}
		if len(seen) != len(gs) {
			t.Errorf("n=%d: %d gates placed, want %d", n, len(seen), len(gs))
		}
		for g, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: gate %s placed %d times", n, g, c)
			}
		}
		// LPT's guarantee: no shard exceeds the ideal by more than the largest single gate.
		var biggest time.Duration
		for _, d := range p.Estimate {
			biggest = max(biggest, d)
		}
		if p.Longest() > p.Total()/time.Duration(n)+biggest {
			t.Errorf("n=%d: longest %v exceeds ideal %v + largest gate %v", n, p.Longest(), p.Total()/time.Duration(n), biggest)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Spec{"1/1": {1, 1}, "2/3": {2, 3}, " 3/3 ": {3, 3}, "256/256": {256, 256}} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "0/2", "3/2", "a/b", "1/0", "-1/2", "1/257"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestFromEnv(t *testing.T) {
	cases := []struct {
		env     map[string]string
		want    Spec
		wantErr string
	}{
		{env: map[string]string{"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, want: Spec{2, 3}},
		{env: map[string]string{"BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "4"}, want: Spec{1, 4}},
		{env: map[string]string{"CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "4"}, want: Spec{4, 4}},
		{env: map[string]string{"SEMAPHORE_JOB_INDEX": "1", "SEMAPHORE_JOB_COUNT": "2"}, want: Spec{1, 2}},
		{env: map[string]string{"GAUNTLET_SHARD": "1/2", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, want: Spec{1, 2}},
		{env: map[string]string{"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"}, wantErr: "CI_NODE_INDEX"},
		{env: map[string]string{"CI_NODE_INDEX": "1"}, wantErr: "not both numbers"},
		{env: map[string]string{"GAUNTLET_SHARD": "x"}, wantErr: "GAUNTLET_SHARD"},
		{env: map[string]string{}, wantErr: "looked for GAUNTLET_SHARD, CI_NODE_INDEX/CI_NODE_TOTAL, BUILDKITE_PARALLEL_JOB"},
	}
	for _, c := range cases {
		got, _, err := FromEnv(func(k string) string { return c.env[k] })
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("FromEnv(%v) error = %v, want it to mention %q", c.env, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("FromEnv(%v) = %v, %v; want %v", c.env, got, err, c.want)
		}
	}
}

func TestParseTimings(t *testing.T) {
	report := `{"schema_version":1,"gates":[
	  {"name":"a","status":"pass","duration_ms":1200},
	  {"name":"b","status":"fail","duration_ms":300},
	  {"name":"c","status":"skipped","duration_ms":0},
	  {"name":"d","status":"cancelled","duration_ms":50},
	  {"name":"e","status":"pass","duration_ms":5,"cached":true},
	  {"name":"f","status":"error","duration_ms":7,"findings":[]}]}`
	got, err := ParseTimings([]byte(report))
	if err != nil {
		t.Fatal(err)
	}
	want := Timings{"a": ms(1200), "b": ms(300), "f": ms(7)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from a report: %v, want %v", got, want)
	}
	got, err = ParseTimings([]byte(`{"a": 1500, "b": 2.5}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Timings{"a": ms(1500), "b": 2500 * time.Microsecond}); !reflect.DeepEqual(got, want) {
		t.Errorf("from a map: %v, want %v", got, want)
	}
	for _, bad := range []string{`[]`, `{"a": "slow"}`, `{"a": -1}`, `nonsense`} {
		if _, err := ParseTimings([]byte(bad)); err == nil {
			t.Errorf("ParseTimings(%s) succeeded", bad)
		}
	}
}

func TestSplitKeepsAGroupTogether(t *testing.T) {
	gs := []Gate{{Name: "build", Group: "build"}, {Name: "a"}, {Name: "test", Group: "build"}, {Name: "b"}, {Name: "lint", Group: "build"}}
	tm := Timings{"build": ms(30), "test": ms(30), "lint": ms(10), "a": ms(40), "b": ms(20)}
	p := Split(gs, tm, 2)
	// The group weighs 70ms and goes first to shard 1; a 40 -> 2, b 20 -> 2 (60).
	want := [][]string{{"build", "test", "lint"}, {"a", "b"}}
	if !reflect.DeepEqual(p.Shards, want) {
		t.Errorf("shards = %v, want %v", p.Shards, want)
	}
	if !reflect.DeepEqual(p.Loads, []time.Duration{ms(70), ms(60)}) {
		t.Errorf("loads = %v", p.Loads)
	}
}
