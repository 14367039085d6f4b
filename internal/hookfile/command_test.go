package hookfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestIsStopHookCommand(t *testing.T) {
	for command, want := range map[string]bool{
		"gauntlet stop-hook":                               true,
		"/usr/local/bin/gauntlet stop-hook":                true,
		"gauntlet stop-hook --host cursor":                 true,
		"env A=1 gauntlet --verbose stop-hook":             true,
		"'/path with space/gauntlet' stop-hook":            true,
		`"$HOME/go/bin/gauntlet" stop-hook`:                true,
		`C:\tools\gauntlet.exe stop-hook`:                  false, // backslashes are escapes to sh
		"cd web && gauntlet stop-hook":                     true,
		"gauntlet run":                                     false,
		"gauntlet-wrapper stop-hook":                       false,
		"echo gauntlet; other stop-hook":                   true, // words after gauntlet, as sh would not care
		"stop-hook gauntlet":                               false,
		"mygauntlet stop-hook":                             false,
		"":                                                 false,
		"'unterminated gauntlet stop-hook":                 false,
		`gauntlet\ stop-hook`:                              false,
		"/opt/gauntlet/bin/gauntlet stop-hook 2>/dev/null": true,
	} {
		if got := IsStopHookCommand(command); got != want {
			t.Errorf("IsStopHookCommand(%q) = %v, want %v", command, got, want)
		}
	}
}

// fakeFS is a PATH and a file system for the resolver: paths to what they link to, and file ids.
type fakeFS struct {
	self    string
	onPath  string // "" when gauntlet is not on PATH
	links   map[string]string
	inode   map[string]string // same value: the same file
	exeFail bool
}

func (f fakeFS) resolver() Resolver {
	return Resolver{
		LookPath: func(string) (string, error) {
			if f.onPath == "" {
				return "", errors.New("not found")
			}
			return f.onPath, nil
		},
		Executable: func() (string, error) {
			if f.exeFail {
				return "", errors.New("no /proc")
			}
			return f.self, nil
		},
		EvalSymlinks: func(p string) (string, error) {
			if target, ok := f.links[p]; ok {
				return target, nil
			}
			return p, nil
		},
		SameFile: func(a, b string) bool {
			return f.inode[a] != "" && f.inode[a] == f.inode[b]
		},
	}
}

func TestStopHookCommand(t *testing.T) {
	tests := []struct {
		name   string
		fs     fakeFS
		want   string
		byPath bool
	}{
		{"on PATH as itself", fakeFS{self: "/usr/bin/gauntlet", onPath: "/usr/bin/gauntlet"}, "gauntlet stop-hook", false},
		{"on PATH through a symlink", fakeFS{self: "/opt/g/1.2/gauntlet", onPath: "/usr/local/bin/gauntlet",
			links: map[string]string{"/usr/local/bin/gauntlet": "/opt/g/1.2/gauntlet"}}, "gauntlet stop-hook", false},
		{"on PATH as a hard link", fakeFS{self: "/a/gauntlet", onPath: "/b/gauntlet",
			inode: map[string]string{"/a/gauntlet": "1", "/b/gauntlet": "1"}}, "gauntlet stop-hook", false},
		{"not on PATH", fakeFS{self: "/home/me/src/bin/gauntlet"}, "/home/me/src/bin/gauntlet stop-hook", true},
		{"another gauntlet on PATH", fakeFS{self: "/work/bin/gauntlet", onPath: "/usr/bin/gauntlet",
			inode: map[string]string{"/work/bin/gauntlet": "1", "/usr/bin/gauntlet": "2"}}, "/work/bin/gauntlet stop-hook", true},
		{"path that needs quoting", fakeFS{self: "/my tools/it's/gauntlet"}, `'/my tools/it'\''s/gauntlet' stop-hook`, true},
		{"own path unknown", fakeFS{exeFail: true}, "gauntlet stop-hook", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, byPath := StopHookCommand(tt.fs.resolver())
			if got != tt.want || byPath != tt.byPath {
				t.Errorf("StopHookCommand = %q, %v; want %q, %v", got, byPath, tt.want, tt.byPath)
			}
			if !IsStopHookCommand(got) {
				t.Errorf("%q is not recognised as gauntlet's stop hook", got)
			}
		})
	}
}

func TestStopHookCommandOnThisSystem(t *testing.T) {
	// The test binary is not called gauntlet, so whatever PATH holds, it is named by its path.
	got, byPath := StopHookCommand(SystemResolver())
	self, _ := os.Executable()
	if !byPath || got != gates.ShellQuote(self)+" stop-hook" {
		t.Errorf("StopHookCommand = %q, %v; want this test binary %s by path", got, byPath, self)
	}
	if !filepath.IsAbs(self) {
		t.Errorf("executable %q is not absolute", self)
	}
}

func TestSameFileSeesHardLinks(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	if err := os.WriteFile(a, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := os.WriteFile(c, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !sameFile(a, b) || sameFile(a, c) || sameFile(a, filepath.Join(dir, "missing")) {
		t.Error("sameFile does not tell a hard link from a copy or a missing file")
	}
}

func TestAfterEditCommandKeepsTheProgramAndTheHost(t *testing.T) {
	for stop, want := range map[string]string{
		"gauntlet stop-hook":                                 "gauntlet after-edit --session-end",
		"gauntlet stop-hook --host gemini":                   "gauntlet after-edit --session-end --host gemini",
		"/opt/stop-hook/bin/gauntlet stop-hook --host codex": "/opt/stop-hook/bin/gauntlet after-edit --session-end --host codex",
		"& 'C:/a b/gauntlet.exe' stop-hook --host codex":     "& 'C:/a b/gauntlet.exe' after-edit --session-end --host codex",
	} {
		if got := AfterEditCommand(stop, "after-edit --session-end"); got != want {
			t.Errorf("AfterEditCommand(%q) = %q, want %q", stop, got, want)
		}
	}
	if got := HostArgs("gemini", "stop-hook"); got != "stop-hook --host gemini" {
		t.Errorf("HostArgs = %q", got)
	}
}
