// Package scaffold looks at a repository to see what kind of projects it holds (Go, Node, Python,
// Rust, Make) and writes a commented starting .gauntlet.yml whose gates fit them.
package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Gate is one gate of the written config.
type Gate struct {
	Name    string // unique in the config and valid as a gate name once Layout has run
	Comment string // one line saying what the gate checks
	Run     string // shell command
	Dir     string // slash-separated, relative to the root; "" is the root itself
	Paths   []string
	Timeout time.Duration
	Hint    string
}

// Project is one detected project: a directory and the tool chain found in it.
type Project struct {
	Dir   string // slash-separated, relative to the root; "" is the root itself
	Kind  string // Go, Node, Python, Rust or Make
	Tool  string // the package manager or runner in use, when it matters (pnpm, uv, ...)
	Gates []Gate // names without the directory prefix; Layout adds it
	Notes []string
}

// Label names the project for people: "Node with pnpm (web)".
func (p Project) Label() string {
	s := p.Kind
	if p.Tool != "" {
		s += " with " + p.Tool
	}
	if p.Dir != "" {
		s += " (" + p.Dir + ")"
	}
	return s
}

// detector inspects one directory for one ecosystem and returns nil when it is not there.
type detector func(dir string) *Project

// languages are tried in every directory; Make comes after them because a Makefile usually wraps
// the same tools.
var languages = []detector{detectGo, detectNode, detectPython, detectRust}

// Detect looks at root and at each directory directly under it, leaving out hidden directories,
// node_modules and vendor. Projects come root first, then by directory name.
func Detect(root string) ([]Project, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("detect projects: %w", err)
	}
	projects := detectDir(root, "")
	for _, e := range entries {
		if !e.IsDir() || skipDir(e.Name()) {
			continue
		}
		projects = append(projects, detectDir(filepath.Join(root, e.Name()), e.Name())...)
	}
	return projects, nil
}

func detectDir(abs, rel string) []Project {
	var found []Project
	for _, detect := range languages {
		if p := detect(abs); p != nil {
			p.Dir = rel
			found = append(found, *p)
		}
	}
	mk := detectMake(abs)
	switch {
	case mk == nil:
	case countGates(found) == 0:
		mk.Dir = rel
		found = append(found, *mk)
	default:
		// Running both would most likely do the same work twice: mention the targets instead.
		targets := make([]string, len(mk.Gates))
		for i, g := range mk.Gates {
			targets[i] = "`" + g.Run + "`"
		}
		found[len(found)-1].Notes = append(found[len(found)-1].Notes,
			"The Makefile here also has "+strings.Join(targets, ", ")+
				": if that checks more than the gates below, add it as a gate.")
	}
	return found
}

func countGates(projects []Project) int {
	n := 0
	for _, p := range projects {
		n += len(p.Gates)
	}
	return n
}

// skipDir leaves out what holds dependencies or tool state rather than projects, and names that
// a config could not spell.
func skipDir(name string) bool {
	if strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" {
		return true
	}
	if !utf8.ValidString(name) {
		return true
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// exists reports whether name in dir is a regular file.
func exists(dir, name string) bool {
	info, err := os.Stat(filepath.Join(dir, name))
	return err == nil && info.Mode().IsRegular()
}
