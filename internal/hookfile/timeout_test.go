package hookfile

import (
	"encoding/json"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"reflect"
	"testing"
	"time"
)

func TestHookTimeoutFor(t *testing.T) {
	for _, tt := range []struct {
		stop time.Duration
		want int
	}{
		{9 * time.Minute, 600},                         // the default: the documented 600 s
		{time.Minute, 600},                             // never below the default
		{21 * time.Minute, 22 * 60},                    // a raised stop hook: a minute above it
		{20*time.Minute + time.Millisecond, 21*60 + 1}, // rounded up, never under
	} {
		if got := HookTimeoutFor(tt.stop); got != tt.want {
			t.Errorf("HookTimeoutFor(%v) = %d, want %d", tt.stop, got, tt.want)
		}
	}
}

// A raised timeout reaches every host in its own unit (Gemini counts milliseconds); Cursor's
// entry has no timeout.
func TestPlanTimeoutInEachHostsUnit(t *testing.T) {
	want := map[hosts.Name]string{
		Claude:  `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":1320}]}]}}`,
		Codex:   `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":1320}]}]}}`,
		Cursor:  `{"version":1,"hooks":{"stop":[{"command":"gauntlet stop-hook","loop_limit":3}]}}`,
		Gemini:  `{"hooks":{"AfterAgent":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":1320000}]}]}}`,
		Copilot: `{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"gauntlet stop-hook","powershell":"gauntlet stop-hook","timeoutSec":1320}]}}`,
		// Qwen Code 0.24.4 reads seconds, but 1000 or more as milliseconds (an older form): 1320
		// seconds are written in milliseconds, lest Qwen Code read 1.32 s.
		hosts.Qwen:  `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":1320000}]}]}}`,
		hosts.Droid: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"gauntlet stop-hook","timeout":1320}]}]}}`,
	}
	for _, host := range Hosts() {
		c, err := PlanTimeout(t.TempDir(), host, false, cmd, 1320)
		if err != nil {
			t.Fatal(err)
		}
		var got, exp any
		if err := json.Unmarshal(c.Content, &got); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal([]byte(want[host]), &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: %s, want %s", host, c.Content, want[host])
		}
	}
}
