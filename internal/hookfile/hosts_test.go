package hookfile

import (
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
)

// The hook's host timeout must leave room for gauntlet's own deadline, and Cursor's loop cap is
// meant to match the default retry limit: both are restated as numbers in the host files.
func TestHostLimitsFitTheStopHookDefaults(t *testing.T) {
	if time.Duration(HookTimeoutSeconds)*time.Second <= config.DefaultStopHookTimeout {
		t.Errorf("hosts give the hook %ds, not more than stop_hook.timeout's default %s", HookTimeoutSeconds, config.DefaultStopHookTimeout)
	}
	if cursorLoopLimit != config.DefaultMaxAttempts {
		t.Errorf("Cursor's loop_limit %d differs from stop_hook.max_attempts' default %d", cursorLoopLimit, config.DefaultMaxAttempts)
	}
}
