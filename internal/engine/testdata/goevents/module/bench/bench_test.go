package bench

import "testing"

func TestQuiet(t *testing.T) { t.Log("a passing test's log beside benchmarks") }

func BenchmarkSum(b *testing.B) {
	b.Log("a benchmark's log")
	for i := 0; i < b.N; i++ {
		_ = i + i
	}
}
