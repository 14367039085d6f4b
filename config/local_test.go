package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func loadWithLocal(t *testing.T, main, local string) (*Config, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if local != "" {
		if err := os.WriteFile(filepath.Join(dir, LocalFileName), []byte(local), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load(Options{File: filepath.Join(dir, FileName)})
}

const overriddenMain = `version: 1
gates:
  test: {run: go test ./...}
  lint: {run: golangci-lint run, severity: warn}
  types: {run: tsc}
  docs: {run: make docs}
`

func TestOverridesNameWhatTheLocalFileChanges(t *testing.T) {
	c, err := loadWithLocal(t, overriddenMain, `
jobs: 2
env: {CI: "1"}
stop_hook: {max_attempts: 1, lock_wait: 1s, reason_limit: 2000}
gates:
  docs: {hint: run make docs, enabled: true}
  types: {argv: ["true"], paths: [src/**], timeout: 1m}
  lint: {severity: warn}
  test: {enabled: false}
  mine: {run: extra}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"test: disabled by .gauntlet.local.yml",
		"types: command replaced by .gauntlet.local.yml",
		"types: paths, timeout changed by .gauntlet.local.yml",
		"env set by .gauntlet.local.yml",
		"stop_hook.max_attempts set by .gauntlet.local.yml",
	}
	if got := OverrideNames(c.Overrides); !slices.Equal(got, want) {
		t.Fatalf("overrides:\n got %q\nwant %q", got, want)
	}
	// The stop hook, by default, judges with the main file alone and keeps the personal keys.
	judged, named, mode := c.ForStopHook()
	if mode != LocalReport || len(named) != len(want) {
		t.Fatalf("ForStopHook: mode %s, named %v", mode, named)
	}
	if judged.Jobs != 2 || judged.StopHook.MaxAttempts != DefaultMaxAttempts || judged.StopHook.LockWait.Seconds() != 1 || judged.Env != nil {
		t.Errorf("judged with jobs %d, max_attempts %d, lock_wait %s, env %q", judged.Jobs, judged.StopHook.MaxAttempts, judged.StopHook.LockWait, judged.Env)
	}
	// How long the reason may be changes no verdict: a personal setting.
	if judged.StopHook.ReasonLimit != 2000 {
		t.Errorf("judged with reason_limit %d, want the local file's 2000", judged.StopHook.ReasonLimit)
	}
	for _, g := range judged.Gates {
		if g.Name == "test" && !g.Enabled || g.Name == "types" && g.Run != "tsc" {
			t.Errorf("gate %s judged as the local file says: %+v", g.Name, g)
		}
	}
	if slices.ContainsFunc(judged.Gates, func(g gates.Gate) bool { return g.Name == "mine" }) {
		t.Error("a gate only the local file defines is judged in report mode")
	}
}

func TestForStopHookModes(t *testing.T) {
	for mode, honoured := range map[string]bool{LocalHonour: true, LocalReport: false, LocalIgnore: false} {
		c, err := loadWithLocal(t, strings.Replace(overriddenMain, "version: 1\n", "version: 1\nstop_hook: {local_overrides: "+mode+"}\n", 1),
			"gates:\n  test: {enabled: false}\n")
		if err != nil {
			t.Fatal(err)
		}
		judged, named, got := c.ForStopHook()
		if got != mode {
			t.Errorf("%s: mode %s", mode, got)
		}
		if disabled := !judged.Gates[0].Enabled; disabled != honoured {
			t.Errorf("%s: test disabled in the stop hook: %v", mode, disabled)
		}
		if (len(named) > 0) != (mode != LocalIgnore) {
			t.Errorf("%s: named %v", mode, named)
		}
	}
	// Without a local file, or one that changes nothing of the gates, the config is itself.
	c, err := loadWithLocal(t, overriddenMain, "jobs: 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if judged, named, _ := c.ForStopHook(); judged != c || named != nil {
		t.Errorf("a personal local file was set aside: %v", named)
	}
}

func TestLocalFileCannotChooseItsOwnTreatment(t *testing.T) {
	_, err := loadWithLocal(t, overriddenMain, "stop_hook: {local_overrides: honour}\n")
	if err == nil || !strings.Contains(err.Error(), "stop_hook.local_overrides can only be set in .gauntlet.yml") {
		t.Fatalf("err = %v", err)
	}
}

// Whoever can write .gauntlet.local.yml (the gated agent) must not be able to make the remote cache
// store what it runs, nor trust a key of its own: both only from .gauntlet.yml.
func TestLocalFileCannotWriteToTheRemoteCacheNorTrustAKey(t *testing.T) {
	main := "version: 1\ncache:\n  enabled: true\n  remote:\n    url: http://127.0.0.1:9/c\n    public_keys: [" + testPublicKey + "]\ngates:\n  t:\n    run: x\n"
	for local, want := range map[string]string{
		"cache:\n  remote:\n    write: true\n":                           ".gauntlet.local.yml:3:5: cache.remote.write: true can only be set in .gauntlet.yml",
		"cache:\n  remote:\n    public_keys: [" + testPublicKey2 + "]\n": ".gauntlet.local.yml:3:5: cache.remote.public_keys can only be set in .gauntlet.yml",
	} {
		_, err := loadWithLocal(t, main, local)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", local, err, want)
		}
	}
	// Turning writing off on one machine decides nothing about what others believe.
	c, err := loadWithLocal(t, strings.Replace(main, "    url:", "    write: true\n    url:", 1), "cache:\n  remote:\n    write: false\n")
	if err != nil || c.RemoteCache == nil || c.RemoteCache.Write {
		t.Fatalf("write: false from the local file: %+v, %v", c.RemoteCache, err)
	}
}

// NoLocal loads .gauntlet.yml alone: what the stop hook judges with when the local file does not
// load, so that writing a broken one is no way to a "config error" that lets the agent stop.
func TestNoLocalLoadsTheMainFileAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(overriddenMain), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, LocalFileName), []byte("bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Options{Dir: dir}); err == nil {
		t.Fatal("a local file with an unknown key loaded")
	}
	c, err := Load(Options{Dir: dir, NoLocal: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.LocalPath != "" || len(c.Overrides) != 0 || len(c.Gates) == 0 {
		t.Fatalf("NoLocal: local %q, overrides %v, %d gates", c.LocalPath, c.Overrides, len(c.Gates))
	}
}

// Whoever can write .gauntlet.local.yml (the gated agent) must not make failures the base already
// has stop blocking, nor the project's `block` lenient: only .gauntlet.yml says.
func TestLocalFileCannotSetPreExisting(t *testing.T) {
	main := "version: 1\nstop_hook:\n  pre_existing: block\ngates:\n  t:\n    run: x\n"
	_, err := loadWithLocal(t, main, "stop_hook:\n  pre_existing: report\n")
	if err == nil || !strings.Contains(err.Error(), ".gauntlet.local.yml:2:3: stop_hook.pre_existing can only be set in .gauntlet.yml") {
		t.Fatalf("err = %v", err)
	}
	c, err := loadWithLocal(t, main, "stop_hook:\n  max_attempts: 4\n")
	if err != nil || c.StopHook.PreExisting != PreExistingBlock {
		t.Fatalf("the project's pre_existing with an unrelated local key: %+v, %v", c.StopHook, err)
	}
}
