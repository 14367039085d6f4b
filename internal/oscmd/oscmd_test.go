package oscmd

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// fakeSystem describes a machine by its environment and files, whatever the machine the tests
// run on.
func fakeSystem(goos string, env map[string]string, files ...string) System {
	return System{
		GOOS:   goos,
		Getenv: func(k string) string { return env[k] },
		IsFile: func(p string) bool {
			if goos == "windows" {
				// Windows file names are case-insensitive.
				return slices.ContainsFunc(files, func(f string) bool { return strings.EqualFold(f, p) })
			}
			return slices.Contains(files, p)
		},
	}
}

func TestWindowsCandidates(t *testing.T) {
	for _, tc := range []struct {
		name, dir, path, pathext string
		want                     []string
	}{
		{"go", `C:\w`, `C:\Go\bin;C:\tools`, ".EXE;.CMD",
			[]string{`C:\Go\bin\go.exe`, `C:\Go\bin\go.cmd`, `C:\tools\go.exe`, `C:\tools\go.cmd`}},
		// A name with an extension is tried as it is first.
		{"npm.cmd", `C:\w`, `C:\node`, ".EXE;.CMD",
			[]string{`C:\node\npm.cmd`, `C:\node\npm.cmd.exe`, `C:\node\npm.cmd.cmd`}},
		// Unset PATHEXT: Windows's default list.
		{"x", "", `C:\b`, "",
			[]string{`C:\b\x.com`, `C:\b\x.exe`, `C:\b\x.bat`, `C:\b\x.cmd`}},
		// Quoted entries may hold ';'; empty entries are skipped, not the current directory.
		{"x", `C:\w`, `"C:\a;b";;C:\c\`, ".EXE",
			[]string{`C:\a;b\x.exe`, `C:\c\x.exe`}},
		// A relative PATH entry is relative to the working directory.
		{"x", `C:\w`, `node_modules\.bin`, ".EXE", []string{`C:\w\node_modules\.bin\x.exe`}},
		// A name with a directory part is not searched for.
		{`.\scripts\lint`, `C:\w`, `C:\b`, ".EXE;.BAT",
			[]string{`C:\w\.\scripts\lint.exe`, `C:\w\.\scripts\lint.bat`}},
		{`D:/tools/lint.exe`, `C:\w`, `C:\b`, ".EXE", []string{`D:/tools/lint.exe`, `D:/tools/lint.exe.exe`}},
	} {
		got := WindowsCandidates(tc.name, tc.dir, tc.path, tc.pathext)
		if !slices.Equal(got, tc.want) {
			t.Errorf("WindowsCandidates(%q, %q, %q, %q)\n got %q\nwant %q", tc.name, tc.dir, tc.path, tc.pathext, got, tc.want)
		}
	}
}

func TestLookPathInOnWindowsUsesPathext(t *testing.T) {
	sys := fakeSystem("windows", map[string]string{"PATHEXT": ".COM;.EXE;.BAT;.CMD"},
		`C:\node\npm.cmd`, `C:\w\npm`)
	got, ok := sys.LookPathIn("npm", `C:\w`, `C:\node`)
	if !ok || got != `C:\node\npm.cmd` {
		t.Errorf("LookPathIn(npm) = %q, %v; want C:\\node\\npm.cmd (and never the worktree's npm)", got, ok)
	}
	if _, ok := sys.LookPathIn("npm", `C:\w`, `C:\elsewhere`); ok {
		t.Error("found npm in the working directory, which PATH does not name")
	}
}

func TestLookPathInOnUnix(t *testing.T) {
	sys := fakeSystem("linux", nil, "/usr/bin/go", "/w/bin/tool")
	if got, ok := sys.LookPathIn("go", "/w", "/bin:/usr/bin"); !ok || got != "/usr/bin/go" {
		t.Errorf("go: %q %v", got, ok)
	}
	if got, ok := sys.LookPathIn("tool", "/w", "bin"); !ok || got != "/w/bin/tool" {
		t.Errorf("relative entry: %q %v", got, ok)
	}
	if got, ok := sys.LookPathIn("./x", "/w", "/bin"); ok {
		t.Errorf("a name with a slash was searched for: %q", got)
	}
}

func TestShellArgvUnix(t *testing.T) {
	sys := fakeSystem("linux", map[string]string{"PATH": "/usr/bin"}, "/usr/bin/bash", "/usr/bin/pwsh")
	for _, tc := range []struct {
		shell string
		want  []string
	}{
		{"", []string{"/bin/sh", "-c", "make lint"}},
		{"sh", []string{"/bin/sh", "-c", "make lint"}},
		{"bash", []string{"/usr/bin/bash", "-c", "make lint"}},
		{"pwsh", []string{"/usr/bin/pwsh", "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", "make lint"}},
	} {
		got, err := ShellArgv(sys, tc.shell, "make lint")
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("shell %q: %q, %v; want %q", tc.shell, got, err, tc.want)
		}
	}
	for _, shell := range []string{"cmd", "powershell", "fish"} {
		if got, err := ShellArgv(sys, shell, "x"); err == nil {
			t.Errorf("shell %q on linux: %q, want an error", shell, got)
		}
	}
}

func TestShellArgvWindowsDefault(t *testing.T) {
	env := map[string]string{
		"PATHEXT":    ".COM;.EXE;.BAT;.CMD",
		"ComSpec":    `C:\Windows\system32\cmd.exe`,
		"SystemRoot": `C:\Windows`,
	}
	gitCmd := `C:\Program Files\Git\cmd`
	gitSh := `C:\Program Files\Git\bin\sh.exe`
	for _, tc := range []struct {
		name  string
		path  string
		files []string
		want  string
	}{
		{"sh on PATH (a Git Bash session)", `C:\Program Files\Git\usr\bin`,
			[]string{`C:\Program Files\Git\usr\bin\sh.exe`}, `C:\Program Files\Git\usr\bin\sh.exe`},
		{"only git on PATH (a plain terminal)", gitCmd,
			[]string{gitCmd + `\git.exe`, gitSh}, gitSh},
		{"git from mingw64", `C:\Git\mingw64\bin`,
			[]string{`C:\Git\mingw64\bin\git.exe`, `C:\Git\usr\bin\sh.exe`}, `C:\Git\usr\bin\sh.exe`},
		{"no Git for Windows", `C:\Windows\system32`, nil, `C:\Windows\system32\cmd.exe`},
		{"git without its sh (MinGit)", gitCmd, []string{gitCmd + `\git.exe`}, `C:\Windows\system32\cmd.exe`},
	} {
		env["PATH"] = tc.path
		got, err := ShellArgv(fakeSystem("windows", env, tc.files...), "", "go vet ./...")
		if err != nil || got[0] != tc.want {
			t.Errorf("%s: %q, %v; want %s", tc.name, got, err, tc.want)
			continue
		}
		if strings.HasSuffix(tc.want, "cmd.exe") {
			if want := []string{tc.want, "/d", "/s", "/c", `"go vet ./..."`}; !slices.Equal(got, want) {
				t.Errorf("%s: %q, want %q", tc.name, got, want)
			}
		} else if want := []string{tc.want, "-c", "go vet ./..."}; !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", tc.name, got, want)
		}
	}
}

func TestShellArgvWindowsNamed(t *testing.T) {
	env := map[string]string{
		"PATH":         `C:\Windows\System32;C:\Program Files\PowerShell\7;C:\Program Files\Git\cmd`,
		"PATHEXT":      ".EXE",
		"SystemRoot":   `C:\Windows`,
		"LOCALAPPDATA": `C:\Users\u\AppData\Local`,
	}
	files := []string{`C:\Windows\System32\bash.exe`, `C:\Program Files\PowerShell\7\pwsh.exe`,
		`C:\Program Files\Git\cmd\git.exe`, `C:\Program Files\Git\bin\bash.exe`}
	sys := fakeSystem("windows", env, files...)

	// WSL's bash.exe in System32 comes first on PATH and is passed over for Git's.
	if got, err := ShellArgv(sys, "bash", "x"); err != nil || got[0] != `C:\Program Files\Git\bin\bash.exe` {
		t.Errorf("bash: %q, %v", got, err)
	}
	if got, err := ShellArgv(sys, "cmd", "x"); err != nil || got[0] != `C:\Windows\System32\cmd.exe` {
		t.Errorf("cmd without ComSpec: %q, %v", got, err)
	}
	if got, err := ShellArgv(sys, "pwsh", "x"); err != nil || got[0] != `C:\Program Files\PowerShell\7\pwsh.exe` {
		t.Errorf("pwsh: %q, %v", got, err)
	}
	// No sh.exe beside git (MinGit): asking for sh by name is an error that says what to do.
	if _, err := ShellArgv(sys, "sh", "x"); err == nil || !strings.Contains(err.Error(), "Git for Windows") {
		t.Errorf("sh without Git's sh.exe: %v", err)
	}
	if _, err := ShellArgv(sys, "powershell", "x"); err == nil {
		t.Error("powershell, not installed: no error")
	}
}

func TestQuoteArg(t *testing.T) {
	for in, want := range map[string]string{
		``:                `""`,
		`plain`:           `plain`,
		`two words`:       `"two words"`,
		`C:\dir\`:         `C:\dir\`,
		`C:\my dir\`:      `"C:\my dir\\"`,
		`say "hi"`:        `"say \"hi\""`,
		`a\"b`:            `"a\\\"b"`,
		`back\\slashes`:   `back\\slashes`,
		"tab\there":       "\"tab\there\"",
		`ends in quote"`:  `"ends in quote\""`,
		`\\server\share\`: `\\server\share\`,
	} {
		if got := QuoteArg(in); got != want {
			t.Errorf("QuoteArg(%q) = %s, want %s", in, got, want)
		}
		if back := parseArgs(QuoteArg(in)); len(back) != 1 || back[0] != in {
			t.Errorf("QuoteArg(%q) reads back as %q", in, back)
		}
	}
}

// parseArgs is CommandLineToArgvW's rule for arguments after the first: the reference QuoteArg
// must round-trip through.
func parseArgs(line string) []string {
	var out []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(line) && line[i] == '\\' {
				n++
				i++
			}
			if i < len(line) && line[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
				} else {
					quoted = !quoted
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
				i--
			}
			inArg = true
		case c == '"':
			if quoted && i+1 < len(line) && line[i+1] == '"' {
				cur.WriteByte('"')
				i++
			} else {
				quoted = !quoted
			}
			inArg = true
		case (c == ' ' || c == '\t') && !quoted:
			if inArg {
				out = append(out, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		out = append(out, cur.String())
	}
	return out
}

func TestWindowsCommand(t *testing.T) {
	const comspec = `C:\Windows\system32\cmd.exe`
	for _, tc := range []struct {
		name string
		path string
		argv []string
		want Command
	}{
		{"program", `C:\Go\bin\go.exe`, []string{"go", "test", "-run", "Test A"},
			Command{`C:\Go\bin\go.exe`, `C:\Go\bin\go.exe test -run "Test A"`}},
		{"program path with spaces", `C:\Program Files\Go\bin\go.exe`, []string{"go", "vet"},
			Command{`C:\Program Files\Go\bin\go.exe`, `"C:\Program Files\Go\bin\go.exe" vet`}},
		// cmd.exe parses its own line: the script goes through as written.
		{"cmd", comspec, []string{"cmd", "/d", "/s", "/c", `"echo "a b" & exit 3"`},
			Command{comspec, comspec + ` /d /s /c "echo "a b" & exit 3"`}},
		// A batch file runs under cmd.exe with its quoting.
		{"batch", `C:\node\npm.cmd`, []string{"npm", "run", "lint & more", `say "x"`},
			Command{comspec, comspec + ` /d /s /c "C:\node\npm.cmd run "lint & more" "say ""x""""`}},
		{"batch with spaces", `C:\Program Files\nodejs\npm.CMD`, []string{"npm", "test"},
			Command{comspec, comspec + ` /d /s /c ""C:\Program Files\nodejs\npm.CMD" test"`}},
	} {
		got, err := WindowsCommand(tc.path, tc.argv, comspec)
		if err != nil || got != tc.want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", tc.name, got, err, tc.want)
		}
	}
	// % expands inside quotes in cmd.exe: refused rather than passed to a batch file changed.
	if _, err := WindowsCommand(`C:\x\run.bat`, []string{"run", "100%"}, comspec); !errors.Is(err, ErrBatchArgument) {
		t.Errorf("%% in a batch argument: %v, want ErrBatchArgument", err)
	}
}
