package stophook

import (
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/runner"
)

// The reply must come within stop_hook.timeout even when a gate ignores SIGTERM: the gates get
// what is left after the grace between SIGTERM and SIGKILL and a margin for the reply, so that
// the three add up to the timeout. A 2 s hook used to give the gates all 2 s and then the 5 s
// grace, replying after 7 s.
func TestStopBudgetFitsTheTimeout(t *testing.T) {
	for _, timeout := range []time.Duration{time.Second, 2 * time.Second, 30 * time.Second, 9 * time.Minute, 2 * time.Hour} {
		gatesTime, grace := stopBudget(timeout)
		if gatesTime <= 0 || grace <= 0 {
			t.Errorf("timeout %s: gates %s grace %s, want both positive", timeout, gatesTime, grace)
		}
		if grace > runner.DefaultGrace {
			t.Errorf("timeout %s: grace %s is longer than the runner's %s", timeout, grace, runner.DefaultGrace)
		}
		if margin := timeout - gatesTime - grace; margin <= 0 || margin > time.Second {
			t.Errorf("timeout %s: gates %s + grace %s leave %s for the reply, want (0, 1s]", timeout, gatesTime, grace, margin)
		}
	}
	if gatesTime, grace := stopBudget(2 * time.Second); gatesTime != 1300*time.Millisecond || grace != 500*time.Millisecond {
		t.Errorf("a 2s hook: gates %s grace %s, want 1.3s and 0.5s", gatesTime, grace)
	}
}
