//go:build windows

package runner

import (
	"os"
	"os/exec"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/oscmd"
)

// lookPath finds name the way Windows would for a process started with env: in env's PATH (not
// gauntlet's own, so that a gate's `env: {PATH: ...}` applies to argv commands too), with each of
// env's PATHEXT extensions. Relative entries and names with a directory part are relative to
// dir. Unlike cmd.exe, the working directory is not searched unless PATH names it.
func lookPath(name, dir string, env []string) (string, error) {
	path, _ := envValue(env, "PATH")
	sys := oscmd.Local()
	sys.Getenv = func(key string) string {
		if v, ok := envValue(env, key); ok || strings.EqualFold(key, "PATHEXT") {
			return v
		}
		return os.Getenv(key)
	}
	if found, ok := sys.LookPathIn(name, dir, path); ok {
		return found, nil
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}
