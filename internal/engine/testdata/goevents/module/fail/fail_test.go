package fail

import (
	"fmt"
	"testing"
)

func TestPasses(t *testing.T) {
	t.Log("a passing test's log in a failing package")
	fmt.Println("a passing test's own print in a failing package")
}

func TestFails(t *testing.T) {
	t.Log("before the failure")
	fmt.Println("a failing test's own print")
	t.Errorf("want %d, got %d", 1, 2)
	t.Log("after the failure\nand a second line")
}

func TestParent(t *testing.T) {
	t.Log("the parent's log before")
	t.Run("ok", func(t *testing.T) { t.Log("a passing subtest's log") })
	t.Run("bad", func(t *testing.T) {
		t.Log("a failing subtest's log")
		t.Run("deep", func(t *testing.T) { t.Error("deep failure") })
		t.Run("skipped", func(t *testing.T) { t.Skip("a skipped subtest") })
		t.Error("sub failure")
	})
	t.Log("the parent's log after")
}

func TestSkipped(t *testing.T) {
	t.Skip("skipped in a failing package")
}
