package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenCreatesStateDir(t *testing.T) {
	project := t.TempDir()
	d, err := Open(project)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()

	want := filepath.Join(project, ".gauntlet")
	if d.Path() != want {
		t.Errorf("Path() = %q, want %q", d.Path(), want)
	}
	info, err := os.Lstat(want)
	if err != nil || !info.IsDir() {
		t.Fatalf("state dir not created as a directory: %v, %v", info, err)
	}

	again, err := Open(project)
	if err != nil {
		t.Fatalf("reopening an existing state dir: %v", err)
	}
	again.Close()
}

func TestOpenRelativeProjectRootGivesAbsolutePath(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	d, err := Open(".")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if !filepath.IsAbs(d.Path()) {
		t.Errorf("Path() = %q, want an absolute path", d.Path())
	}
}

func TestOpenRefusesWhatIsNotAPlainDirectory(t *testing.T) {
	tests := []struct {
		name    string
		plant   func(t *testing.T, project, outside string)
		wantErr string
	}{
		{
			name: "absolute symlink to a directory outside the project",
			plant: func(t *testing.T, project, outside string) {
				mustSymlink(t, outside, filepath.Join(project, ".gauntlet"))
			},
			wantErr: "symbolic link",
		},
		{
			name: "relative symlink escaping the project",
			plant: func(t *testing.T, project, outside string) {
				rel, err := filepath.Rel(project, outside)
				if err != nil {
					t.Fatal(err)
				}
				mustSymlink(t, rel, filepath.Join(project, ".gauntlet"))
			},
			wantErr: "symbolic link",
		},
		{
			name: "symlink to a directory inside the project",
			plant: func(t *testing.T, project, outside string) {
				if err := os.Mkdir(filepath.Join(project, "real"), 0o755); err != nil {
					t.Fatal(err)
				}
				mustSymlink(t, "real", filepath.Join(project, ".gauntlet"))
			},
			wantErr: "symbolic link",
		},
		{
			name: "dangling symlink",
			plant: func(t *testing.T, project, outside string) {
				mustSymlink(t, filepath.Join(outside, "missing"), filepath.Join(project, ".gauntlet"))
			},
			wantErr: "symbolic link",
		},
		{
			name: "regular file",
			plant: func(t *testing.T, project, outside string) {
				if err := os.WriteFile(filepath.Join(project, ".gauntlet"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "not a directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, outside := t.TempDir(), t.TempDir()
			tt.plant(t, project, outside)

			d, err := Open(project)
			if err == nil {
				d.Close()
				t.Fatal("Open succeeded, want an error")
			}
			msg := err.Error()
			if !strings.Contains(msg, filepath.Join(project, ".gauntlet")) || !strings.Contains(msg, tt.wantErr) {
				t.Errorf("error %q should name the state dir and say %q", msg, tt.wantErr)
			}
			assertEmpty(t, outside)
		})
	}
}

func TestOpenErrorNamesPathAndCause(t *testing.T) {
	tests := []struct {
		name      string
		project   func(t *testing.T) string
		wantCause string
	}{
		{
			name: "project root missing",
			project: func(t *testing.T) string {
				return filepath.Join(t.TempDir(), "missing")
			},
			wantCause: "no such file or directory",
		},
		{
			name: "project root is a file",
			project: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "file")
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			},
			wantCause: "not a directory",
		},
		{
			name: "project root not writable",
			project: func(t *testing.T) string {
				if os.Geteuid() == 0 {
					t.Skip("root ignores directory permissions")
				}
				p := t.TempDir()
				if err := os.Chmod(p, 0o500); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.Chmod(p, 0o755) })
				return p
			},
			wantCause: "mkdir: permission denied",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := tt.project(t)
			d, err := Open(project)
			if err == nil {
				d.Close()
				t.Fatal("Open succeeded, want an error")
			}
			want := "state dir " + filepath.Join(project, ".gauntlet") + ": "
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), tt.wantCause) {
				t.Errorf("error %q: want prefix %q and cause %q", err, want, tt.wantCause)
			}
		})
	}
}

func openTestDir(t *testing.T) *Dir {
	t.Helper()
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s should stay empty, has %v", dir, names)
	}
}

// A new state directory ignores itself, so that a repository whose .gitignore does not list it
// never shows it as untracked; an existing one is left as its owner keeps it.
func TestOpenWritesGitignoreOnCreation(t *testing.T) {
	project := t.TempDir()
	d, err := Open(project)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	got, err := os.ReadFile(filepath.Join(project, Name, ".gitignore"))
	if err != nil || string(got) != "*\n" {
		t.Fatalf(".gitignore = %q, %v; want \"*\\n\"", got, err)
	}

	if err := os.WriteFile(filepath.Join(project, Name, ".gitignore"), []byte("logs/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err = Open(project)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got, _ := os.ReadFile(filepath.Join(project, Name, ".gitignore")); string(got) != "logs/\n" {
		t.Errorf("reopening rewrote .gitignore: %q", got)
	}

	older := t.TempDir()
	if err := os.Mkdir(filepath.Join(older, Name), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err = Open(older)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := os.Stat(filepath.Join(older, Name, ".gitignore")); !os.IsNotExist(err) {
		t.Errorf("an existing state dir got a .gitignore: %v", err)
	}
}
