// Package oscmd decides how a command is started on each operating system: which shell runs a
// gate's `run:` string, which file a command name means (PATHEXT on Windows), and how an argv
// becomes a Windows command line. The decisions are pure functions of a System, so that their
// tests run on every operating system, Windows's included, wherever the suite runs.
package oscmd

import "strings"

// System is what the decisions look at. The zero value is no system at all; Local describes
// the one gauntlet runs on.
type System struct {
	// GOOS is the operating system, as runtime.GOOS spells it.
	GOOS string
	// Getenv reads gauntlet's own environment (not a gate's: a gate's PATH must not decide
	// which shell parses its command).
	Getenv func(key string) string
	// IsFile reports whether path names an existing regular file (on Unix: an executable one).
	IsFile func(path string) bool
}

func (s System) windows() bool { return s.GOOS == "windows" }

func (s System) getenv(key string) string {
	if s.Getenv == nil {
		return ""
	}
	return s.Getenv(key)
}

func (s System) isFile(path string) bool { return s.IsFile != nil && s.IsFile(path) }

// LookPath finds name on gauntlet's own PATH the way LookPathIn does.
func (s System) LookPath(name string) (string, bool) {
	return s.LookPathIn(name, "", s.getenv("PATH"))
}

// LookPathIn finds name in the directory list path (relative entries are relative to dir), as
// the system would start it: on Windows with each PATHEXT extension, never in the current
// directory unless PATH names it. A name with a path separator is not searched for.
func (s System) LookPathIn(name, dir, path string) (string, bool) {
	var candidates []string
	if s.windows() {
		candidates = WindowsCandidates(name, dir, path, s.getenv("PATHEXT"))
	} else {
		candidates = unixCandidates(name, dir, path)
	}
	for _, c := range candidates {
		if s.isFile(c) {
			return c, true
		}
	}
	return "", false
}

// unixCandidates is execvp's search: every PATH entry, an empty one meaning the directory.
func unixCandidates(name, dir, path string) []string {
	if strings.Contains(name, "/") {
		return []string{name}
	}
	var out []string
	for _, entry := range strings.Split(path, ":") {
		if entry == "" {
			entry = "."
		}
		c := entry + "/" + name
		if !strings.HasPrefix(c, "/") && dir != "" {
			c = strings.TrimSuffix(dir, "/") + "/" + c
		}
		out = append(out, c)
	}
	return out
}
