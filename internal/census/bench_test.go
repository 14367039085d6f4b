package census

import (
	"fmt"
	"testing"
)

// A module renamed: every test's ID changes, and each is found again by name in another suite.
func BenchmarkCompareEveryTestMoved(b *testing.B) {
	const n = 20_000
	var base, now Census
	for i := range n {
		base.Tests = append(base.Tests, tc(fmt.Sprintf("example.com/old/p%d::TestCase%d", i%100, i), Pass))
		now.Tests = append(now.Tests, tc(fmt.Sprintf("example.com/new/p%d::TestCase%d", i%100, i), Pass))
	}
	base.Complete, now.Complete = true, true
	b.ResetTimer()
	for range b.N {
		if got := Compare(base, now, ChangeInfo{}); len(got) != 0 {
			b.Fatalf("%d findings", len(got))
		}
	}
}
