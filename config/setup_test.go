package config

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A setup step resolves to a check gate marked Setup with the config's defaults; a local
// override changes it key by key, and --timeout reaches it unless it set its own.
func TestSetupStepsResolveAndMerge(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".git/": "", ".gauntlet.yml": `version: 1
cache: true
timeout: 2m
env: {A: "1"}
setup:
  install:
    run: npm ci
    inputs: [package-lock.json]
    env: {B: "2"}
  gen:
    argv: [go, generate]
    timeout: 1m
gates:
  test:
    run: npm test
    needs: [install, gen]
`, ".gauntlet.local.yml": `setup:
  install:
    argv: [pnpm, install]
`})
	c, err := Load(Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Setup) != 2 {
		t.Fatalf("setup = %+v, want install and gen", c.Setup)
	}
	install, gen := c.Setup[0], c.Setup[1]
	if !install.Setup || install.Kind != gates.KindCheck || install.Run != "" || !slices.Equal(install.Argv, []string{"pnpm", "install"}) {
		t.Errorf("install = %+v, want a setup check running pnpm install", install)
	}
	if !install.Cache || !slices.Equal(install.Inputs, []string{"package-lock.json"}) || !slices.Equal(install.Env, []string{"A=1", "B=2"}) {
		t.Errorf("install cache %v inputs %v env %v", install.Cache, install.Inputs, install.Env)
	}
	if install.Timeout != 2*time.Minute || gen.Timeout != time.Minute || !install.Enabled || install.Severity != gates.SeverityError {
		t.Errorf("timeouts %v %v, enabled %v severity %v", install.Timeout, gen.Timeout, install.Enabled, install.Severity)
	}
	c.SetDefaultTimeout(time.Hour)
	if c.Setup[0].Timeout != time.Hour || c.Setup[1].Timeout != time.Minute {
		t.Errorf("after --timeout: %v %v, want 1h and its own 1m", c.Setup[0].Timeout, c.Setup[1].Timeout)
	}
	if !slices.Equal(c.Gates[0].Needs, []string{"install", "gen"}) {
		t.Errorf("needs = %v", c.Gates[0].Needs)
	}
	if c.Path != filepath.Join(root, FileName) {
		t.Errorf("path %s", c.Path)
	}
}
