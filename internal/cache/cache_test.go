package cache

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func repo(t *testing.T) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "src/a.go", "package a\n")
	write(t, dir, "docs/readme.md", "docs\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	return dir
}

func keyOf(t *testing.T, dir string, g gates.Gate, session string) (string, bool) {
	t.Helper()
	tree, err := snapshot.New(dir, snapshot.Options{}).Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	key, ok, err := Key(context.Background(), g, Context{Tree: tree, Session: session})
	if err != nil {
		t.Fatal(err)
	}
	return key, ok
}

func TestKeyFollowsWhatDecidesTheResult(t *testing.T) {
	base := gates.Gate{Name: "go", Kind: gates.KindCheck, Run: "go test ./...", Cache: true, Inputs: []string{"src/**"}}
	tests := []struct {
		name    string
		change  func(t *testing.T, dir string, g *gates.Gate)
		changed bool
	}{
		{"nothing", func(*testing.T, string, *gates.Gate) {}, false},
		{"an input edited", func(t *testing.T, dir string, _ *gates.Gate) { write(t, dir, "src/a.go", "package b\n") }, true},
		{"an untracked input added", func(t *testing.T, dir string, _ *gates.Gate) { write(t, dir, "src/b.go", "x") }, true},
		{"an input deleted", func(t *testing.T, dir string, _ *gates.Gate) { os.Remove(filepath.Join(dir, "src/a.go")) }, true},
		{"an input made executable", func(t *testing.T, dir string, _ *gates.Gate) { os.Chmod(filepath.Join(dir, "src/a.go"), 0o755) }, true},
		{"a file outside the inputs edited", func(t *testing.T, dir string, _ *gates.Gate) { write(t, dir, "docs/readme.md", "new\n") }, false},
		{"an untracked file outside the inputs", func(t *testing.T, dir string, _ *gates.Gate) { write(t, dir, "docs/new.md", "x") }, false},
		{"an edit staged and committed as it is", func(t *testing.T, dir string, _ *gates.Gate) {
			write(t, dir, "src/a.go", "package b\n")
			before, _ := keyOf(t, dir, base, "")
			git(t, dir, "commit", "-qam", "next")
			if after, _ := keyOf(t, dir, base, ""); after != before {
				t.Errorf("committing an edited input as it is changed the key")
			}
		}, true},
		{"the command", func(_ *testing.T, _ string, g *gates.Gate) { g.Run = "go test -race ./..." }, true},
		{"the env", func(_ *testing.T, _ string, g *gates.Gate) { g.Env = []string{"A=1"} }, true},
		{"the dir", func(_ *testing.T, _ string, g *gates.Gate) { g.Dir = "src" }, true},
		{"the inputs", func(_ *testing.T, _ string, g *gates.Gate) { g.Inputs = []string{"src/**", "go.mod"} }, true},
		{"the timeout", func(_ *testing.T, _ string, g *gates.Gate) { g.Timeout = time.Hour }, false},
		{"the hint", func(_ *testing.T, _ string, g *gates.Gate) { g.Hint = "try harder" }, false},
		{"gauntlet's version", func(t *testing.T, _ string, _ *gates.Gate) {
			old := ToolVersion
			ToolVersion = "v9.9.9"
			t.Cleanup(func() { ToolVersion = old })
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := repo(t)
			before, ok := keyOf(t, dir, base, "")
			if !ok {
				t.Fatal("a gate with cache: true has no key")
			}
			g := base
			tt.change(t, dir, &g)
			after, _ := keyOf(t, dir, g, "")
			if changed := after != before; changed != tt.changed {
				t.Errorf("key changed = %v, want %v", changed, tt.changed)
			}
		})
	}
}

func TestKeyWithoutInputsIsTheWholeTree(t *testing.T) {
	dir := repo(t)
	g := gates.Gate{Name: "all", Run: "true", Cache: true}
	before, _ := keyOf(t, dir, g, "")
	write(t, dir, "docs/readme.md", "new\n")
	if after, _ := keyOf(t, dir, g, ""); after == before {
		t.Error("a gate without inputs or paths ignored an edit")
	}
	scoped := gates.Gate{Name: "docs", Run: "true", Cache: true, Paths: []string{"docs/**"}, Exclude: []string{"docs/*.tmp"}}
	before, _ = keyOf(t, dir, scoped, "")
	write(t, dir, "docs/x.tmp", "x")
	if after, _ := keyOf(t, dir, scoped, ""); after != before {
		t.Error("a file its exclude drops changed the key of a gate whose inputs default to paths")
	}
}

func TestSessionGatesAreKeyedBySession(t *testing.T) {
	dir := repo(t)
	g := gates.Gate{Name: "t", Run: "true", Cache: true, Session: true}
	if _, ok := keyOf(t, dir, g, ""); ok {
		t.Error("a session gate has a key without a session (gauntlet run)")
	}
	if _, ok := keyOf(t, dir, gates.Gate{Name: "todos", Kind: gates.KindTodos, Cache: true}, ""); ok {
		t.Error("a todos gate has a key without a session")
	}
	s1, _ := keyOf(t, dir, g, "claude/s1")
	s2, _ := keyOf(t, dir, g, "claude/s2")
	if s1 == s2 {
		t.Error("two sessions share a session gate's key")
	}
	if _, ok := keyOf(t, dir, gates.Gate{Name: "off", Run: "true"}, "claude/s1"); ok {
		t.Error("a gate without cache: true has a key")
	}
}

func TestStoreIsBounded(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	s, err := Open(sd)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range MaxEntries + 50 {
		s.Put(fmt.Sprintf("key-%d", i), Entry{Gate: "g", Run: "r", At: start.Add(time.Duration(i) * time.Second)})
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(sd)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.f.Entries); n != MaxEntries {
		t.Errorf("%d entries kept, want %d", n, MaxEntries)
	}
	if _, ok := again.Lookup("key-0"); ok {
		t.Error("the oldest entry survived pruning")
	}
	if _, ok := again.Lookup(fmt.Sprintf("key-%d", MaxEntries+49)); !ok {
		t.Error("the newest entry was pruned")
	}
	// A corrupt file is an empty cache, not an error.
	if err := sd.WriteFileAtomic(File, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if c, err := Open(sd); err != nil || len(c.f.Entries) != 0 {
		t.Errorf("corrupt cache: %v entries, err %v", len(c.f.Entries), err)
	}
}

// new_only turns a failure into a pass by the findings' lines against the base: its setting,
// the format that finds the findings, and the base the change is measured from are all part of
// the key, or a pass would outlive the rule that granted it.
func TestKeyCoversNewOnlyAndItsBase(t *testing.T) {
	tree := &snapshot.Tree{Head: "h1"}
	base := func(commit string) Context {
		return Context{Tree: tree, MergeBase: func() string { return commit }}
	}
	g := gates.Gate{Name: "lint", Kind: gates.KindCheck, Run: "lint", Cache: true, NewOnly: true}
	key := func(g gates.Gate, c Context) string {
		t.Helper()
		k, ok, err := Key(context.Background(), g, c)
		if err != nil || !ok {
			t.Fatalf("Key: %v %v", ok, err)
		}
		return k
	}
	k := key(g, base("b1"))
	if key(g, base("b2")) == k {
		t.Error("a new merge-base kept the key")
	}
	off := g
	off.NewOnly = false
	if key(off, base("b1")) == k {
		t.Error("turning new_only off kept the key")
	}
	other := g
	other.Format = []string{"generic"}
	if key(other, base("b1")) == k {
		t.Error("another format kept the key")
	}
}

// A pass gauntlet did not write answers nothing: an entry added or edited by hand makes the
// file fail its seal, and the cache reads as empty.
func TestStoreBelievesOnlyWhatItSealed(t *testing.T) {
	sd, err := state.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	s, _ := Open(sd)
	s.Put("real", Entry{Gate: "g", Run: "r", At: time.Unix(1, 0).UTC()})
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	if again, _ := Open(sd); len(again.f.Entries) != 1 {
		t.Fatalf("a sealed cache reads back %d entries, want 1", len(again.f.Entries))
	}
	data, err := sd.ReadFile(File)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), `"entries":{`, `"entries":{"forged":{"gate":"g","run":"x","at":"2026-01-01T00:00:00Z"},`, 1)
	if forged == string(data) {
		t.Fatalf("unexpected cache file %s", data)
	}
	if err := sd.WriteFileAtomic(File, []byte(forged)); err != nil {
		t.Fatal(err)
	}
	again, _ := Open(sd)
	if _, ok := again.Lookup("forged"); ok || len(again.f.Entries) != 0 {
		t.Fatalf("a forged entry was believed: %v", again.f.Entries)
	}
}
