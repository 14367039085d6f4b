package pass

import (
	"fmt"
	"testing"
)

func TestLogs(t *testing.T) {
	t.Log("a passing test's log")
	t.Logf("two\nlines")
}

func TestPrints(t *testing.T) {
	fmt.Println("a passing test's own print")
}

func TestSkipped(t *testing.T) {
	t.Skip("not here")
}

func TestTable(t *testing.T) {
	for _, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) { t.Log("case", n) })
	}
}
