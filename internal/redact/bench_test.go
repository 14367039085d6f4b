package redact

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkText measures what every gate's tail costs on its way into the reports: cleaning and
// redacting 64 KiB of compiler-like output against an environment of 100 variables, 8 secret.
func BenchmarkText(b *testing.B) {
	var env []string
	for i := range 92 {
		env = append(env, fmt.Sprintf("VAR_%d=value-number-%d", i, i))
	}
	for i := range 8 {
		env = append(env, fmt.Sprintf("SERVICE_%d_TOKEN=tok_%d_abcdefghijklmnopqrstuvwxyz", i, i))
	}
	r := New(Rules{}, env)
	var tail strings.Builder
	for tail.Len() < 64<<10 {
		fmt.Fprintf(&tail, "pkg/file_%d.go:%d:7: \x1b[31merror\x1b[0m: undefined: value-number-%d\n", tail.Len()%97, tail.Len()%1000, tail.Len()%50)
	}
	s := tail.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		r.Text(s)
	}
}
