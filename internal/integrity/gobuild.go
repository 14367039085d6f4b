package integrity

import (
	"bytes"
	"go/build"
	"go/build/constraint"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

// goWalked says whether `go test ./...` reaches a file: the go tool skips every directory (and
// file) whose name starts with _ or ., and testdata.
func goWalked(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") || part == "testdata" {
			return false
		}
	}
	return true
}

// goContext is the go tool's view of the platform the gates run on (GOOS, GOARCH, cgo, the
// release tags), with the tags the gates' go commands are given (-tags): a test file it would
// not build has none of its tests run by the gates.
func (j *judge) goContext() *build.Context {
	if j.goCtx == nil {
		c := build.Default
		c.BuildTags = gateTags(j.goFlags())
		j.goCtx = &c
	}
	return j.goCtx
}

// goFlags are where the gates' go commands take their flags from: their own command lines, and
// GOFLAGS in the environment they inherit from this one.
func (j *judge) goFlags() []string {
	return append(slices.Clone(j.in.Commands), os.Getenv("GOFLAGS"))
}

var goTagsFlag = lazy(`(?:^|\s)--?tags(?:=|\s+)("[^"]*"|'[^']*'|[^\s"']+)`)

// gateTags are the build tags the gates' commands pass to the go tool, in either spelling
// (-tags=a,b or -tags "a b").
func gateTags(commands []string) []string {
	var out []string
	for _, cmd := range commands {
		for _, m := range goTagsFlag.FindAllStringSubmatch(cmd, -1) {
			out = append(out, strings.FieldsFunc(strings.Trim(m[1], `"'`), func(r rune) bool { return r == ',' || r == ' ' })...)
		}
	}
	return out
}

// goBuilds says whether the go tool builds the file at p, with content data, where the gates
// run: its name carries no other platform's GOOS/GOARCH and its build constraint holds. A file it
// cannot read the header of is taken to build: the compiler, not integrity, reports it.
func (j *judge) goBuilds(p string, data []byte) bool {
	c := *j.goContext()
	c.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	ok, err := c.MatchFile(path.Dir(p), path.Base(p))
	return ok || err != nil
}

// goNameBuilds says whether a Go file's name alone lets the go tool build it here.
func (j *judge) goNameBuilds(p string) bool { return j.goBuilds(p, []byte("package p\n")) }

// platform names where the gates run, for messages.
func (j *judge) platform() string { return j.goContext().GOOS + "/" + j.goContext().GOARCH }

// goHeader is as much of a Go file, on one side of the change, as the go tool needs to tell
// whether it builds: its build constraint lines, then a package clause. The base's are read from
// the diff rather than from git (a process per file): the file's own now, less those the change
// adds, plus those it removes; a deleted file's removed lines are all of it.
func (j *judge) goHeader(f File, old bool) []byte {
	var added map[int]bool
	if old {
		added = lineNumbers(f.Added)
	}
	var lines []string
	if !f.Deleted {
		data, _ := j.ch.New(f.Path)
		lines = constraintsAbovePackage(splitLines(data), added)
	}
	if old {
		lines = append(lines, constraintsOf(f.Removed)...)
	}
	return []byte(strings.Join(lines, "\n") + "\n\npackage p\n")
}

// constraintsAbovePackage are a Go file's build constraint lines, but the lines skip names.
func constraintsAbovePackage(lines []string, skip map[int]bool) []string {
	var out []string
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "package ") {
			break
		}
		if isBuildConstraint(t) && !skip[i+1] {
			out = append(out, t)
		}
	}
	return out
}

// constraintsOf are the build constraints among lines of a diff.
func constraintsOf(lines []Line) []string {
	var out []string
	for _, r := range lines {
		if t := strings.TrimSpace(r.Text); isBuildConstraint(t) {
			out = append(out, t)
		}
	}
	return out
}

func isBuildConstraint(line string) bool {
	return constraint.IsGoBuild(line) || constraint.IsPlusBuild(line)
}

// buildConstraintLine is the line (1-based) of a Go file's build constraint, the //go:build line
// when there is one; 0 when the file has none.
func buildConstraintLine(data []byte) (int, string) {
	plus := 0
	var plusText string
	for i, line := range splitLines(data) {
		t := strings.TrimSpace(line)
		switch {
		case constraint.IsGoBuild(t):
			return i + 1, t
		case constraint.IsPlusBuild(t) && plus == 0:
			plus, plusText = i+1, t
		case strings.HasPrefix(t, "package "):
			return plus, plusText
		}
	}
	return plus, plusText
}
