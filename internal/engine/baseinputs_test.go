package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The base's checkout is lent the ignored inputs wherever they are, read-only, and never
// dependency folders, build output, caches or artifacts; a file the checkout has is kept.
func TestLendIgnoredFilesBelowTheRoot(t *testing.T) {
	root := gitRepo(t, map[string]string{
		".gitignore": ".env\nconfig/\nnode_modules/\nbuild/\n*.o\n.gauntlet/\ntracked.yml\nCLAUDE.local.md\n",
		"web/app.js": "x\n",
	})
	ignored := map[string]bool{
		".env": true, "web/.env": true, "config/local.yml": true, "config/deep/more.json": true,
		"config/node_modules/x.js": false, "node_modules/a/package.json": false, "build/out.txt": false,
		"web/main.o": false, ".gauntlet/state/x": false, "tracked.yml": false, "CLAUDE.local.md": false,
		"config/AGENTS.md": false, "config/.claude/settings.local.json": false,
		// An ignored test file is the change's (change-hidden), never an input: lent, it would run
		// in the base too and hide what it does.
		"config/zz_test.go": false, "config/test_x.py": false, "config/a.test.js": false, "config/gen.go": true,
	}
	for name := range ignored {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("project's "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "tracked.yml"), []byte("base's"), 0o644); err != nil {
		t.Fatal(err)
	}
	lendIgnoredFiles(context.Background(), root, base, nil)
	for name, lent := range ignored {
		info, err := os.Stat(filepath.Join(base, filepath.FromSlash(name)))
		switch {
		case name == "tracked.yml":
			data, _ := os.ReadFile(filepath.Join(base, name))
			if string(data) != "base's" {
				t.Errorf("%s: the base's own file was replaced: %q", name, data)
			}
		case lent && err != nil:
			t.Errorf("%s: not lent: %v", name, err)
		case lent && info.Mode().Perm()&0o222 != 0:
			t.Errorf("%s: lent writable (%v)", name, info.Mode())
		case !lent && err == nil:
			t.Errorf("%s: lent, and must not be", name)
		}
	}
}

// The inputs the session kept at its start are lent as they were then, the others as they are
// now; what the session keeps is what would be lent, within its smaller bounds.
func TestLendIgnoredFilesAsTheSessionStarted(t *testing.T) {
	root := gitRepo(t, map[string]string{".gitignore": ".env\n.gauntlet/\n", "web/app.js": "x\n"})
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("web/.env", "DB=ok")
	atStart := IgnoredInputs(context.Background(), root)
	if string(atStart["web/.env"]) != "DB=ok" || len(atStart) != 1 {
		t.Fatalf("kept %q", atStart)
	}
	write("web/.env", "DB=down")
	write(".env", "NEW=1")
	base := t.TempDir()
	lendIgnoredFiles(context.Background(), root, base, atStart)
	for name, want := range map[string]string{"web/.env": "DB=ok", ".env": "NEW=1"} {
		if data, _ := os.ReadFile(filepath.Join(base, filepath.FromSlash(name))); string(data) != want {
			t.Errorf("%s lent as %q, want %q", name, data, want)
		}
	}
}
