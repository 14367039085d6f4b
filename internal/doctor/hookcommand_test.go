package doctor

import (
	"slices"
	"testing"
)

// A hook command is read as sh reads a simple command; anything more is refused, since what it
// runs (and what it does to stop-hook's reply) cannot be checked.
func TestCommandArgv(t *testing.T) {
	env := map[string]string{"CLAUDE_PROJECT_DIR": "/p r", "X": "x"}
	lookup := func(k string) string { return env[k] }
	for _, tt := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "gauntlet stop-hook", want: []string{"gauntlet", "stop-hook"}},
		{in: `"$CLAUDE_PROJECT_DIR"/bin/gauntlet stop-hook --host=claude`, want: []string{"/p r/bin/gauntlet", "stop-hook", "--host=claude"}},
		{in: `${X}y 'a b' "c\"d" e\ f '$X'`, want: []string{"xy", "a b", `c"d`, "e f", "$X"}},
		{in: "env A=1 gauntlet stop-hook", want: []string{"env", "A=1", "gauntlet", "stop-hook"}},
		// What init writes on Windows for a PowerShell host and a program path with a space.
		{in: "& 'C:/Program Files/gauntlet/gauntlet.exe' stop-hook", want: []string{"C:/Program Files/gauntlet/gauntlet.exe", "stop-hook"}},
		{in: "gauntlet stop-hook || true", err: true},
		{in: "gauntlet stop-hook; echo", err: true},
		{in: "gauntlet stop-hook > /dev/null", err: true},
		{in: "gauntlet stop-hook 2>&1", err: true},
		{in: "gauntlet stop-hook &", err: true},
		{in: "$(which gauntlet) stop-hook", err: true},
		{in: "`which gauntlet` stop-hook", err: true},
		{in: "gauntlet 'stop-hook", err: true},
		{in: "   ", err: true},
		{in: "gauntlet stop-hook\necho", err: true},
	} {
		got, err := commandArgv(tt.in, lookup)
		if (err != nil) != tt.err || !tt.err && !slices.Equal(got, tt.want) {
			t.Errorf("commandArgv(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestProgramOf(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		prog string
		args []string
		err  bool
	}{
		{argv: []string{"gauntlet", "stop-hook"}, prog: "gauntlet", args: []string{"stop-hook"}},
		{argv: []string{"A=1", "B=2", "gauntlet", "stop-hook"}, prog: "gauntlet", args: []string{"stop-hook"}},
		{argv: []string{"/usr/bin/env", "A=1", "gauntlet"}, prog: "gauntlet", args: []string{}},
		{argv: []string{"env", "-i", "gauntlet"}, err: true},
		{argv: []string{"A=1"}, err: true},
	} {
		prog, args, err := programOf(tt.argv)
		if (err != nil) != tt.err || !tt.err && (prog != tt.prog || !slices.Equal(args, tt.args)) {
			t.Errorf("programOf(%q) = %q %q %v", tt.argv, prog, args, err)
		}
	}
}
