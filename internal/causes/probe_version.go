package causes

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// A toolchain is too old only for a version that exists. Which versions exist is known without
// the network from each project's fixed release cadence, counted to today: Go ships 1.N every six
// months (1.21 in August 2023) with patch releases about monthly, Rust 1.N every six weeks (1.0 on
// 15 May 2015), Python 3.N every October (3.8 in 2019), Node.js a major every six months (20 in
// April 2023). `go 1.99` in go.mod, `rust-version = "1.150"` or `requires-python = ">=3.99"` are
// not releases: the project asks for something no environment has, which is the author's error.

// toolVersion reads the required versions out of a signature's matched line.
type toolVersion struct {
	tool     string
	required func() *regexp.Regexp // its groups hold the required versions (compiled at first use)
	released func(v version, now time.Time) bool
}

var versionProbes = sync.OnceValue(func() map[string]toolVersion {
	return map[string]toolVersion{
		"go-toolchain-too-old": {"Go",
			lazyRegexp(`requires go >= (?:go)?(\S+?)[;)]? |invalid go version '(?:go)?([^']+)'`), goReleased},
		"go-toolchain-download-failed": {"Go", lazyRegexp(`download go(\S+?):? `), goReleased},
		"golangci-lint-go-too-old":     {"Go", lazyRegexp(`targeted Go version \((?:go)?([^)\s]+)\)`), goReleased},
		"rust-toolchain-too-old":       {"Rust", lazyRegexp(`rustc (\d\S*) is not supported|requires rustc (\d\S*) or newer`), rustReleased},
		"python-version-unsupported":   {"Python", lazyRegexp(`not in '([^']+)'`), pythonReleased},
		"node-engine-unsupported":      {"Node.js", lazyRegexp(`Expected version "([^"]+)"`), nodeReleased},
		"pytest-too-old":               {"pytest", lazyRegexp(`requires pytest-(\S+?),`), majorEveryYearSince(8, 2024, 1)},
		"pre-commit-too-old":           {"pre-commit", lazyRegexp(`pre-commit version (\S+) is required`), majorEveryYearSince(4, 2024, 9)},
	}
})

// version is major.minor.patch with an optional pre-release ("1.23rc1": pre "rc1").
type version struct {
	major, minor, patch int
	parts               int // how many numbers were given
	pre                 string
}

var versionText = lazyRegexp(`(\d+)(?:\.(\d+))?(?:\.(\d+))?((?:rc|beta|alpha|a|b)\d+)?`)

// versionsIn finds every version in s ("1.99", ">=3.99,<4", "^22.1.0 || >=24").
func versionsIn(s string) []version {
	var out []version
	for _, m := range versionText().FindAllStringSubmatch(s, 8) {
		v := version{pre: m[4]}
		v.major, _ = strconv.Atoi(m[1])
		v.parts = 1
		if m[2] != "" {
			v.minor, _ = strconv.Atoi(m[2])
			v.parts = 2
		}
		if m[3] != "" {
			v.patch, _ = strconv.Atoi(m[3])
			v.parts = 3
		}
		out = append(out, v)
	}
	return out
}

func (v version) String() string {
	s := strconv.Itoa(v.major)
	if v.parts >= 2 {
		s += "." + strconv.Itoa(v.minor)
	}
	if v.parts >= 3 {
		s += "." + strconv.Itoa(v.patch)
	}
	return s + v.pre
}

// probeVersion agrees when every version the line requires is a released one (or the line names
// none it can read), and disagrees naming the first that is not.
func probeVersion(now time.Time, sig Signature, line string) verdict {
	tv, ok := versionProbes()[sig.ID]
	if !ok {
		return agree()
	}
	for _, m := range tv.required().FindAllStringSubmatch(line, 4) {
		for _, group := range m[1:] {
			for _, v := range versionsIn(group) {
				if !tv.released(v, now) {
					return disagree(fmt.Sprintf("%s %s is not a released version", tv.tool, v))
				}
			}
		}
	}
	return agree()
}

// monthsSince counts whole months from year/month (1-12) to now.
func monthsSince(year, month int, now time.Time) int {
	return (now.Year()*12 + int(now.Month()) - 1) - (year*12 + month - 1)
}

// goReleased: Go 1.N for N >= 21 comes out in February or August, 1.21 in August 2023; its
// patch releases follow about monthly (two months of slack); release candidates come up to two
// months before the release.
func goReleased(v version, now time.Time) bool {
	if v.major != 1 || v.parts < 2 {
		return v.major == 1 && v.parts == 1
	}
	if v.minor < 21 {
		return v.patch <= 30
	}
	age := monthsSince(2023, 8, now) - (v.minor-21)*6 // months since 1.N.0
	if v.pre != "" {
		return age >= -2 && v.parts == 2
	}
	return age >= 0 && v.patch <= age+2
}

// rustReleased: Rust 1.N comes out every six weeks from 1.0 on 15 May 2015.
func rustReleased(v version, now time.Time) bool {
	if v.major != 1 {
		return false
	}
	first := time.Date(2015, 5, 15, 0, 0, 0, 0, time.UTC)
	latest := int(now.Sub(first).Hours() / 24 / 42)
	return v.minor <= latest && v.patch <= 10
}

// pythonReleased: Python 3.N (N >= 8) comes out every October, 3.8 in 2019; 2.x and 3.0-3.7 are
// long out, and there is no 4.
func pythonReleased(v version, now time.Time) bool {
	switch {
	case v.major == 2 || v.major == 3 && v.minor < 8:
		return true
	case v.major != 3:
		return false
	}
	age := monthsSince(2019, 10, now) - (v.minor-8)*12
	return age >= 0 && v.patch <= age+2
}

// nodeReleased: Node.js majors come out every April and October, 20 in April 2023.
func nodeReleased(v version, now time.Time) bool {
	if v.major < 20 {
		return v.major >= 0
	}
	age := monthsSince(2023, 4, now) - (v.major-20)*6
	return age >= 0
}

// majorEveryYearSince bounds a tool whose majors come no faster than one a year: major base came
// out in year/month, so a version more than one major a year past it (and one of slack) does not
// exist yet. pytest 8.0 came out in January 2024 and pre-commit 4.0 in September 2024; a
// `minversion = "99"` is the project's error, not the environment's.
func majorEveryYearSince(base, year, month int) func(version, time.Time) bool {
	return func(v version, now time.Time) bool {
		return v.major <= base+monthsSince(year, month, now)/12+1
	}
}
