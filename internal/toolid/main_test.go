package toolid

import (
	"os"
	"testing"
)

// TestMain keeps the memo of tool digests (beside the key of internal/seal) out of the real
// user's state directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gauntlet-user-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
