package runner

import (
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestGateEnvLayers(t *testing.T) {
	g := gates.Gate{Name: "lint", Env: []string{"A=gate", "B=gate", "GAUNTLET=0"}}
	got := gateEnv([]string{"A=base", "C=base", "NOVALUE"}, g, "run-7", []string{"B=extra"})
	want := []string{"C=base", "NOVALUE", "A=gate", "GAUNTLET=1", "GAUNTLET_RUN_ID=run-7", "GAUNTLET_GATE=lint", "B=extra"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEnvValue(t *testing.T) {
	env := []string{"PATH=/a", "X=1", "PATH=/b"}
	if v, ok := envValue(env, "PATH"); !ok || v != "/b" {
		t.Errorf("PATH = %q %v, want the last one", v, ok)
	}
	if _, ok := envValue(env, "MISSING"); ok {
		t.Error("found a missing key")
	}
}

// On Windows variable names are case-insensitive: a gate's PATH replaces the inherited Path, and
// the hidden per-drive directories ("=C:", "=D:") are separate variables, not one named "".
func TestEnvKeysOnWindows(t *testing.T) {
	defer func(old bool) { envFoldCase = old }(envFoldCase)
	envFoldCase = true
	env := dedupEnv([]string{`=C:=C:\w`, `=D:=D:\x`, `Path=C:\Windows`, `PATH=C:\Go\bin`})
	want := []string{`=C:=C:\w`, `=D:=D:\x`, `PATH=C:\Go\bin`}
	if !slices.Equal(env, want) {
		t.Errorf("dedupEnv = %q, want %q", env, want)
	}
	if v, ok := envValue([]string{`Path=C:\a`}, "PATH"); !ok || v != `C:\a` {
		t.Errorf("envValue(PATH) = %q %v, want the Path entry", v, ok)
	}

	envFoldCase = false
	if _, ok := envValue([]string{"Path=/a"}, "PATH"); ok {
		t.Error("on Unix Path is not PATH")
	}
}
