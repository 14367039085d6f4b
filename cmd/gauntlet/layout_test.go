package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Only the embeddable core and the binary live outside internal/: anything else there would be an
// accidental public API (a test file alone makes a directory a package).
func TestOnlyTheCoreIsOutsideInternal(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to list the packages:", err)
	}
	cmd := exec.Command(goCmd, "list", "./...")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	const module = "github.com/gauntlet-dev/gauntlet/"
	core := []string{"cmd/gauntlet", "config", "gates", "runner", "lock"}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(p, module)
		if !strings.HasPrefix(rel, "internal/") && !slices.Contains(core, rel) {
			t.Errorf("package %s is outside internal/ and not part of the core %v", rel, core)
		}
	}
}
