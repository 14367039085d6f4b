package hang

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestFine(t *testing.T) { t.Log("fine") }

// TestHang runs only when asked: go test ./... must not wait for it.
func TestHang(t *testing.T) {
	if os.Getenv("GOEVENTS_HANG") == "" {
		t.Skip("set GOEVENTS_HANG to hang")
	}
	t.Log("hanging")
	fmt.Println("a hanging test's own print")
	time.Sleep(time.Minute)
}
