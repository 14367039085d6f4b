//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// defaultPath is what execvp searches when the environment has no PATH.
const defaultPath = "/bin:/usr/bin"

// lookPath finds name the way a shell started with env would: in env's PATH, not gauntlet's own,
// so that a gate's `env: {PATH: ...}` applies to argv commands too. Relative PATH entries and
// names with a slash are relative to dir, the process's working directory.
func lookPath(name, dir string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		// exec resolves it after changing to dir; a missing file fails Start.
		return name, nil
	}
	path, ok := envValue(env, "PATH")
	if !ok {
		path = defaultPath
	}
	for _, entry := range filepath.SplitList(path) {
		if entry == "" {
			entry = "."
		}
		candidate := filepath.Join(entry, name)
		if !filepath.IsAbs(candidate) {
			candidate = filepath.Join(dir, candidate)
		}
		if isExecutableFile(candidate) {
			return candidate, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

func isExecutableFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
