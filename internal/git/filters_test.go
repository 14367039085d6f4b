package git

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestParseFilters(t *testing.T) {
	out := "filter.lfs.clean\ngit-lfs clean -- %f\x00filter.lfs.smudge\ngit-lfs smudge -- %f\x00" +
		"filter.lfs.process\ngit-lfs filter-process\x00filter.lfs.required\ntrue\x00" +
		"filter.a.b.clean\ngit show HEAD:%f\x00filter.x=y.smudge\nrm -rf .\x00"
	got := parseFilters([]byte(out))
	want := []string{"a.b\x00clean=git show HEAD:%f", "x=y\x00smudge=rm -rf ."}
	if !slices.Equal(got, want) {
		t.Errorf("drivers = %q, want %q (Git LFS as installed is kept)", got, want)
	}
	// An lfs driver with another command is set aside like any other.
	if got := parseFilters([]byte("filter.lfs.clean\ngit show HEAD:%f\x00")); len(got) != 1 {
		t.Errorf("a rewritten lfs driver: %q, want it set aside", got)
	}
}

// A repository's clean filter that answers with HEAD's bytes hides an edit from git; gauntlet's
// calls set it aside, whatever its name, and after any GIT_CONFIG_COUNT already in force.
func TestFiltersSetAside(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	run("config", "filter.h=x.clean", "echo same")
	writeFile(t, dir+"/.git/info/attributes", "* filter=h=x\n")
	writeFile(t, dir+"/a.txt", "one\n")
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "user.name")
	t.Setenv("GIT_CONFIG_VALUE_0", "x")
	out, err := Output(context.Background(), dir, 1<<10, "hash-object", "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The blob of "one\n", not of the filter's "same\n".
	if got := string(out); got != "5626abf0f72e58d7a153368ba57db4c673c0e171\n" {
		t.Errorf("hash-object = %q: the filter was applied", got)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
