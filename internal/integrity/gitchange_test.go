package integrity

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	write(t, dir, files)
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	run("checkout", "-q", "-b", "work")
	t.Cleanup(func() {})
	gitRun = run
	return dir
}

var gitRun func(args ...string)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadSnapshotSeesEveryKindOfChange(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"committed.go": "package a\n", "staged.go": "package a\n", "unstaged.go": "package a\n",
		"gone_test.go": "package a\n\nfunc TestGone(t *testing.T) {}\n", "old_test.go": "package a\n\nfunc TestMoved(t *testing.T) {\n\tt.Log(1)\n}\n",
	})
	write(t, dir, map[string]string{"committed.go": "package a\n\n// x //nolint\n"})
	gitRun("commit", "-qam", "on the branch")
	write(t, dir, map[string]string{"staged.go": "package a\n\nvar s = 1 //nolint:gosec\n", "unstaged.go": "package a\nvar u = 2\n", "new.py": "import os  # noqa\n"})
	gitRun("add", "staged.go")
	gitRun("mv", "old_test.go", "renamed_test.go")
	if err := os.Remove(filepath.Join(dir, "gone_test.go")); err != nil {
		t.Fatal(err)
	}

	ch, err := ReadSnapshot(context.Background(), snapshot.New(dir, snapshot.Options{Base: "main"}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range ch.Files() {
		got = append(got, fmt.Sprintf("%s<-%s c%v d%v +%d -%d", f.Path, f.OldPath, f.Created, f.Deleted, len(f.Added), len(f.Removed)))
	}
	want := []string{
		"committed.go<-committed.go cfalse dfalse +2 -0",
		"gone_test.go<-gone_test.go cfalse dtrue +0 -3",
		"new.py<- ctrue dfalse +1 -0",
		"renamed_test.go<-old_test.go cfalse dfalse +0 -0",
		"staged.go<-staged.go cfalse dfalse +2 -0",
		"unstaged.go<-unstaged.go cfalse dfalse +1 -0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if data, ok := ch.Old("gone_test.go"); !ok || !strings.Contains(string(data), "TestGone") {
		t.Errorf("Old(gone_test.go) = %q, %v", data, ok)
	}
	if _, ok := ch.New("gone_test.go"); ok {
		t.Error("New(gone_test.go) found a deleted file")
	}
	found := render(Detect(ch, Inputs{}))
	wantFindings := []string{"suppression-added committed.go:3", "test-file-removed gone_test.go:0", "suppression-added new.py:1", "suppression-added staged.go:3"}
	if !slices.Equal(found, wantFindings) {
		t.Errorf("findings %q, want %q", found, wantFindings)
	}
}

func TestCheckJudgesAgainstTheBasePolicy(t *testing.T) {
	dir := gitRepo(t, map[string]string{".gauntlet.yml": "version: 1\ngates: {}\n", "a.go": "package a\n"})
	write(t, dir, map[string]string{".gauntlet.yml": "version: 1\nintegrity: off\ngates: {}\n", "a.go": "package a\n\nvar x = 1 //nolint\n"})
	res, err := Check(context.Background(), Options{Root: dir, Base: "main", Hook: true, Policy: PolicyOf("off"), Inputs: Inputs{ConfigFile: ".gauntlet.yml"}})
	if err != nil {
		t.Fatal(err)
	}
	got := render(res.Findings)
	want := []string{"integrity-relaxed .gauntlet.yml:2", "suppression-added a.go:3"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	gitRun("commit", "-qam", "accepted")
	gitRun("checkout", "-q", "main")
	gitRun("merge", "-q", "work")
	res, err = Check(context.Background(), Options{Root: dir, Base: "main", Hook: true, Policy: PolicyOf("off"), Inputs: Inputs{ConfigFile: ".gauntlet.yml"}})
	if err != nil || len(res.Findings) != 0 || res.Skipped != "integrity: off" {
		t.Errorf("after merging: %+v, %v; want nothing judged", res, err)
	}
}
