package main

import (
	"os"
	"time"
)

// The stop hook's records age by a clock that scripts may move ahead in this test binary (and
// only here), so that no script waits for a record to expire:
//
//	GAUNTLET_TEST_CLOCK_AHEAD=DURATION  the stop hook's clock runs that far ahead of the system's
func init() {
	ahead, err := time.ParseDuration(os.Getenv("GAUNTLET_TEST_CLOCK_AHEAD"))
	if err != nil || ahead == 0 {
		return
	}
	stopHookNow = func() time.Time { return time.Now().Add(ahead) }
}
