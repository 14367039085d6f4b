package stophook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/session"
)

func TestRemotesOfReadsTheRepositorysConfig(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git")
	if err := os.Mkdir(gitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	config := `[core]
	bare = false
[remote "origin"]
	url = https://example.com/a.git
	fetch = +refs/heads/*:refs/remotes/origin/*
[branch "main"]
	remote = origin
[remote "fork"]
	URL = "/srv/fork.git"
`
	if err := os.WriteFile(filepath.Join(gitDir, "config"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	got := remotesOf(root)
	if len(got) != 2 || got["origin"] != "https://example.com/a.git" || got["fork"] != "/srv/fork.git" {
		t.Errorf("remotesOf = %v", got)
	}
	if got := remotesOf(t.TempDir()); len(got) != 0 {
		t.Errorf("outside a repository: %v", got)
	}
}

func TestRemoteBranch(t *testing.T) {
	for ref, want := range map[string][2]string{
		"refs/remotes/origin/main":      {"origin", "main"},
		"refs/remotes/origin/feature/x": {"origin", "feature/x"},
		"refs/remotes/origin/HEAD":      {},
		"refs/heads/main":               {},
	} {
		remote, branch, ok := remoteBranch(ref)
		if ok != (want[0] != "") || remote != want[0] && ok || branch != want[1] && ok {
			t.Errorf("remoteBranch(%q) = %q, %q, %v; want %q", ref, remote, branch, ok, want)
		}
	}
}

func TestStartedWithOnlyBranchesAndRulesOfTheStart(t *testing.T) {
	rec := &session.Record{RemoteBranches: []string{"origin/main"}, URLRules: "url.a.insteadof=b\n"}
	if !startedWith(rec, "origin", "main", "url.a.insteadof=b\n") {
		t.Error("a branch of the start, same rules: refused")
	}
	if startedWith(rec, "origin", "feature", "url.a.insteadof=b\n") {
		t.Error("a branch made during the session vouches")
	}
	if startedWith(rec, "origin", "main", "url.a.insteadof=b\nurl.evil.insteadof=b\n") {
		t.Error("a URL rule added during the session leaves the branch vouching")
	}
}

func TestIdentitiesAreDistinctAndCaseless(t *testing.T) {
	got := identities("A@x.org", "", " a@x.org ", "b@y.org")
	if len(got) != 2 || got[0] != "a@x.org" || got[1] != "b@y.org" {
		t.Errorf("identities = %v", got)
	}
}
