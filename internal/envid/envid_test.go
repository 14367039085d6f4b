package envid

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSteeringNamesWhatChanged(t *testing.T) {
	dir := t.TempDir()
	goenv := filepath.Join(dir, "goenv")
	base := []string{"PATH=/usr/bin:/bin", "HOME=/h", "GOENV=" + goenv, "TERM=xterm"}
	then := Steering(base, "")

	cases := []struct {
		name string
		env  []string
		edit func()
		want []string
	}{
		{name: "nothing", env: base},
		{name: "a variable that steers no tool", env: append(base, "TERM=dumb", "COLUMNS=80")},
		{name: "a fake directory first on PATH", env: append(base, "PATH=/tmp/fake:/usr/bin:/bin"), want: []string{PathKey}},
		{name: "GOFLAGS", env: append(base, "GOFLAGS=-run=^$"), want: []string{"GOFLAGS"}},
		{name: "an npm setting", env: append(base, "npm_config_ignore_scripts=true"), want: []string{"npm_config_ignore_scripts"}},
		{name: "go env -w", env: base, edit: func() { os.WriteFile(goenv, []byte("GOFLAGS=-run=^$\n"), 0o644) }, want: []string{GoEnvPrefix + "GOFLAGS"}},
		{name: "go env -w where modules come from", env: base, edit: func() {
			os.WriteFile(goenv, []byte("GOPRIVATE=example.com/private\nGOPROXY=https://proxy.example.com\n"), 0o644)
		}},
		{name: "a line of Go's env file that is no setting", env: base, edit: func() { os.WriteFile(goenv, []byte("# hand-written\n"), 0o644) }, want: []string{GoEnvKey}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(goenv)
			if tc.edit != nil {
				tc.edit()
			}
			got := Changed(then, Steering(tc.env, ""))
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Errorf("Changed = %q, want %q", got, tc.want)
			}
			same := len(tc.want) == 0
			if (Local(then) == Local(Steering(tc.env, ""))) != same {
				t.Errorf("Local identity equal = %v, want %v", !same, same)
			}
		})
	}
}

func TestPortableLeavesPathOut(t *testing.T) {
	a := Steering([]string{"PATH=/usr/bin", "GOFLAGS=-mod=mod"}, "")
	b := Steering([]string{"PATH=/opt/ci/bin:/usr/bin", "GOFLAGS=-mod=mod"}, "")
	if Portable(a) != Portable(b) {
		t.Error("PATH, which differs between machines, changed the portable identity")
	}
	if Local(a) == Local(b) {
		t.Error("PATH did not change the local identity")
	}
	c := Steering([]string{"PATH=/usr/bin", "GOFLAGS=-run=^$"}, "")
	if Portable(a) == Portable(c) {
		t.Error("GOFLAGS did not change the portable identity")
	}
}
