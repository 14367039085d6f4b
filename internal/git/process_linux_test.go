package git

import (
	"strings"
	"testing"
)

// The environment is deduplicated as os/exec does it: the last value of a variable wins, an
// entry that is no KEY=VALUE stays, a NUL fails.
func TestDedupEnv(t *testing.T) {
	got, err := dedupEnv([]string{"A=1", "B=2", "=C:=x", "A=3", "junk", "", "=C:=y"})
	want := []string{"B=2", "A=3", "junk", "=C:=y"}
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dedupEnv = %q, %v; want %q", got, err, want)
	}
	if _, err := dedupEnv([]string{"A=1\x00"}); err == nil {
		t.Error("a NUL in the environment was let through")
	}
}
