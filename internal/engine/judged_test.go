package engine

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestUseJudged(t *testing.T) {
	gs := []gates.Gate{{Name: "lint"}, {Name: "test"}, {Name: "review"}, {Name: "slow"}}
	judged := []gates.Result{
		{Name: "lint", Status: gates.StatusPass},
		{Name: "test", Status: gates.StatusFail},
		{Name: "slow", Status: gates.StatusCancelled}, // not reached: runs again
	}
	cfg := &config.Config{}
	rest, used := useJudged(Request{Config: cfg, Judged: judged}, gs)
	if len(rest) != 2 || rest[0].Name != "review" || rest[1].Name != "slow" {
		t.Fatalf("rest = %v, want review and slow", rest)
	}
	if len(used) != 2 || used[0].Name != "lint" || used[1].Status != gates.StatusFail {
		t.Fatalf("used = %+v", used)
	}
	// With fail-fast, the judge's failure leaves the rest unjudged, at once.
	rest, used = useJudged(Request{Config: cfg, Judged: judged, FailFast: true}, gs)
	if len(rest) != 0 || len(used) != 4 || used[2].Status != gates.StatusCancelled || used[3].Reason != "cancelled: fail-fast after test failed" {
		t.Fatalf("fail-fast: rest %v, used %+v", rest, used)
	}
	// Nothing judged: everything runs.
	if rest, used := useJudged(Request{Config: cfg}, gs); len(rest) != 4 || used != nil {
		t.Fatalf("nothing judged: rest %v, used %v", rest, used)
	}
}
