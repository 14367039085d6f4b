package toolid

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestPrograms(t *testing.T) {
	for _, tc := range []struct {
		gate gates.Gate
		want []string
	}{
		{gates.Gate{Argv: []string{"golangci-lint", "run"}}, []string{"golangci-lint"}},
		{gates.Gate{Run: "go test ./..."}, []string{"go"}},
		{gates.Gate{Run: "FOO=1 exec env -i BAR=2 grep -q x f && ./check.sh | sort; \"$X\" y"}, []string{"grep", "./check.sh", "sort"}},
		{gates.Gate{Run: "if test -f x; then make lint; fi"}, []string{"test", "make"}},
		{gates.Gate{Run: "time nice -n 5 pytest -q"}, []string{"pytest"}},
		{gates.Gate{Run: "echo 'a && b' \"c; d\""}, []string{"echo"}},
		{gates.Gate{Run: "$(which go) vet"}, []string{"which"}},
		{gates.Gate{Run: "((( unbalanced"}, []string{"((("}},
		{gates.Gate{Kind: gates.KindReview, Review: &gates.Review{CLI: "claude"}}, []string{"claude"}},
		{gates.Gate{Kind: gates.KindReview, Review: &gates.Review{CLI: "my-reviewer --strict"}}, []string{"my-reviewer"}},
		{gates.Gate{Kind: gates.KindTodos}, nil},
	} {
		if got := Programs(tc.gate); !slices.Equal(got, tc.want) {
			t.Errorf("Programs(%q %q) = %q, want %q", tc.gate.Run, tc.gate.Argv, got, tc.want)
		}
	}
}

func writeExe(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The identity follows PATH, a rewrite of the program, and a script's interpreter.
func TestIdentityChangesWithTheTool(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeExe(t, filepath.Join(a, "tool"), "#!/bin/sh\nexit 0\n")
	writeExe(t, filepath.Join(b, "tool"), "#!/bin/sh\necho passes everything\n")
	writeExe(t, filepath.Join(b, "interp"), "binary")
	g := gates.Gate{Name: "g", Run: "tool --check"}
	id := func(path string) string {
		t.Helper()
		s, err := New().Identity(context.Background(), g, dir, []string{"PATH=" + path})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := id(a)
	if first != id(a) {
		t.Fatal("the identity of the same tool differs between two calls")
	}
	if first == id(b+":"+a) {
		t.Fatal("another tool first on PATH has the same identity")
	}
	if !strings.Contains(id(b), "interpreter \"/bin/sh\" sha256=") {
		t.Fatalf("no interpreter in %s", id(b))
	}
	// The same program elsewhere (another machine, another worktree) is the same program.
	c := filepath.Join(dir, "c")
	writeExe(t, filepath.Join(c, "tool"), "#!/bin/sh\nexit 0\n")
	if first != id(c) {
		t.Fatal("the same tool at another path has another identity")
	}
	// Rewritten in place, same size: its content, and so its identity, changes (the memo of
	// digests is keyed by what a rewrite changes).
	time.Sleep(10 * time.Millisecond)
	writeExe(t, filepath.Join(a, "tool"), "#!/bin/sh\nexit 1\n")
	if first == id(a) {
		t.Fatal("a rewritten tool has the same identity")
	}
	if !strings.Contains(id(""), "not found") {
		t.Fatal("a missing tool is not said to be missing")
	}
	// The gate's own env decides PATH.
	g.Env = []string{"PATH=" + b}
	if id(a) != id(b) {
		t.Fatalf("the gate's PATH is not the one looked in: %s", id(a))
	}
}

// A Go gate adds the toolchain as go env reports it; a fake go stands in for the real one.
func TestGoToolchain(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	writeExe(t, filepath.Join(dir, "bin", "go"), "#!/bin/sh\necho x >> "+count+"\nprintf 'go1.99\\nlinux\\n'\n")
	env := []string{"PATH=" + filepath.Join(dir, "bin") + ":/bin:/usr/bin"}
	r := New()
	for range 3 {
		s, err := r.Identity(context.Background(), gates.Gate{Name: "t", Run: "go test ./..."}, dir, env)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, `go env GOVERSION="go1.99"`) || !strings.Contains(s, `go env GOOS="linux"`) {
			t.Fatalf("no toolchain in %s", s)
		}
	}
	if data, _ := os.ReadFile(count); strings.Count(string(data), "x") != 1 {
		t.Fatalf("go env ran %d times in one run, want once", strings.Count(string(data), "x"))
	}
	// A go env that fails is no identity at all.
	writeExe(t, filepath.Join(dir, "bin", "go"), "#!/bin/sh\nexit 1\n")
	if _, err := New().Identity(context.Background(), gates.Gate{Name: "t", Argv: []string{"golangci-lint"}}, dir, env); err != nil {
		t.Fatalf("golangci-lint not on PATH: %v", err)
	}
	writeExe(t, filepath.Join(dir, "bin", "golangci-lint"), "binary")
	if _, err := New().Identity(context.Background(), gates.Gate{Name: "t", Argv: []string{"golangci-lint"}}, dir, env); err == nil {
		t.Fatal("a failing go env gave an identity")
	}
}

// A tool's digest is remembered beside the key under what a rewrite changes: a second run reads
// it from there, and a memo edited by hand is not believed.
func TestDigestMemo(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "tool")
	writeExe(t, tool, "binary one")
	d := &digestMemo{}
	first := d.of(context.Background(), tool)
	if !strings.HasPrefix(first, "sha256=") {
		t.Fatalf("digest %q", first)
	}
	// A new run (a new memo) finds it without reading the file: make the file unreadable.
	if err := os.Chmod(tool, 0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // root reads it anyway
		if got := (&digestMemo{}).of(context.Background(), tool); got != first {
			t.Fatalf("the memo was not used: %q, want %q", got, first)
		}
	}
	os.Chmod(tool, 0o755)
	// The memo edited by hand: ignored, the file is hashed again.
	memoPath := filepath.Join(d.key.StateDir(), memoFile)
	data, err := os.ReadFile(memoPath)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), first[len("sha256="):], strings.Repeat("0", 64), 1)
	if err := os.WriteFile(memoPath, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := (&digestMemo{}).of(context.Background(), tool); got != first {
		t.Fatalf("a forged memo was believed: %q, want %q", got, first)
	}
}

// The memo written back holds every digest it read and learned, each found again by a new run,
// and past its bound it forgets the oldest.
func TestDigestMemoKeepsAndForgets(t *testing.T) {
	dir := t.TempDir()
	var tools []string
	for i := range 3 {
		tool := filepath.Join(dir, fmt.Sprintf("tool\n%d", i)) // a newline in a name stays one line
		writeExe(t, tool, fmt.Sprintf("binary %d", i))
		tools = append(tools, tool)
	}
	want := map[string]string{}
	for _, tool := range tools {
		want[tool] = (&digestMemo{}).of(context.Background(), tool)
	}
	d := &digestMemo{}
	d.once.Do(d.load)
	found := 0
	for id, e := range d.entries() {
		if got, ok := d.lookup(id); !ok || got != e {
			t.Errorf("lookup(%q) = %+v, %v; want %+v", id, got, ok, e)
		}
		if slices.Contains(slices.Collect(maps.Values(want)), "sha256="+e.SHA256) {
			found++
		}
	}
	if found != len(tools) {
		t.Errorf("the memo holds %d of the %d tools", found, len(tools))
	}

	all := map[string]memoEntry{"a": {At: 3}, "b": {At: 1}, "c": {At: 2}}
	forgetOldest(all, 2)
	if _, ok := all["a"]; len(all) != 1 || !ok {
		t.Errorf("after forgetting the two oldest: %v, want only a", all)
	}
}

// The #! line learned while hashing a file, and kept in the memo, is the one read from the file.
func TestShebangLearnedWithTheDigest(t *testing.T) {
	dir := t.TempDir()
	for i, content := range []string{"#!/bin/sh\nexit 0\n", "#!  /usr/bin/env  python3 -u\nprint()\n", "binary\x00#!/bin/sh\n",
		"#!" + strings.Repeat("x", 300), "", "#!\n", "#!/bin/sh", "#!/bin/" + strings.Repeat("y", 260) + "\n"} {
		tool := filepath.Join(dir, fmt.Sprintf("tool%d", i))
		writeExe(t, tool, content)
		want := shebang(tool)
		_, line, known := (&digestMemo{}).file(context.Background(), tool)
		fromMemo, memoLine, memoKnown := (&digestMemo{}).file(context.Background(), tool)
		if !known || !memoKnown || !slices.Equal(shebangFields(line), want) || memoLine != line || !strings.HasPrefix(fromMemo, "sha256=") {
			t.Errorf("%q: learned %q (%v), from the memo %q (%v); the file's #! words are %q", content, line, known, memoLine, memoKnown, want)
		}
	}
}
