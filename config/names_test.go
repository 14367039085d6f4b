package config

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The load path checks names with written-out functions; the expressions stay what the schema
// states. They must agree on every name.
func TestNameChecksAgreeWithTheirExpressions(t *testing.T) {
	cases := []string{
		"", "a", "A", "0", "_", "-", "a-", "a_", "-a", "_a", "a b", "a.b", "é", "a\n", "\na",
		"lint", "go-test_2", "Lint", "GOPATH", "_x", "x9", "9x", "a$", "a\x00",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65),
		"a" + strings.Repeat("-", 63), "a" + strings.Repeat("_", 64),
	}
	const alphabet = "aAzZ09_-.é \n$"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(70) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, name := range cases {
		if got, want := validGateName(name), gateNamePattern().MatchString(name); got != want {
			t.Errorf("validGateName(%q) = %v, the expression says %v", name, got, want)
		}
		if got, want := validEnvName(name), envNamePattern().MatchString(name); got != want {
			t.Errorf("validEnvName(%q) = %v, the expression says %v", name, got, want)
		}
	}
}
