package cache

import (
	"os"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// TestMain keeps the key that seals gauntlet's state (internal/seal) out of the real user's state
// directory.
func TestMain(m *testing.M) { os.Exit(testos.RunWithUserState(m)) }
