package scaffold

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
)

// testReports names, in tests:, the JUnit report of a test gate whose runner writes one only where
// the project's own config says, so that gauntlet cannot ask it for its census: cargo nextest,
// with a profile's junit path in .config/nextest.toml. Every other test gate is left to
// gauntlet, which asks the runners it recognises itself (docs/census.md).
func testReports(root string, projects []Project) {
	for i := range projects {
		p := &projects[i]
		for j := range p.Gates {
			g := &p.Gates[j]
			if !isNextest(g.Run) {
				continue
			}
			g.Tests = nextestReport(filepath.Join(root, filepath.FromSlash(p.Dir)), p.Dir, *g)
			if g.Tests != "" {
				g.TestsNote = "The JUnit report .config/nextest.toml has nextest write (profile " + nextestProfile(*g) +
					"): the gate's test census is read from it."
			}
		}
	}
}

func isNextest(run string) bool {
	for _, r := range census.Detect(census.Command{Shell: run}) {
		if r.Runner == "cargo nextest" {
			return true
		}
	}
	return false
}

// nextestConfig is the part of .config/nextest.toml that says where a profile's JUnit goes:
// <store dir>/<profile>/<junit path>, a profile without its own junit path taking the default
// profile's.
type nextestConfig struct {
	Store struct {
		Dir string `toml:"dir"`
	} `toml:"store"`
	Profile map[string]struct {
		JUnit struct {
			Path string `toml:"path"`
		} `toml:"junit"`
	} `toml:"profile"`
}

// nextestReport is the root-relative report of g's nextest profile, "" when the config names none.
func nextestReport(abs, dir string, g Gate) string {
	data := readCapped(filepath.Join(abs, ".config", "nextest.toml"))
	if data == nil {
		return ""
	}
	var cfg nextestConfig
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return ""
	}
	profile := nextestProfile(g)
	report := firstNonEmpty(cfg.Profile[profile].JUnit.Path, cfg.Profile["default"].JUnit.Path)
	store := firstNonEmpty(cfg.Store.Dir, "target/nextest")
	if report == "" || path.IsAbs(report) || path.IsAbs(store) {
		return ""
	}
	out := path.Join(dir, store, profile, report)
	if strings.HasPrefix(out, "../") || out == ".." {
		return ""
	}
	return out
}

// nextestProfile is the profile a gate's nextest runs: --profile or -P, else NEXTEST_PROFILE,
// else default.
func nextestProfile(g Gate) string {
	if p, ok := profileFlag(strings.Fields(g.Run)); ok {
		return p
	}
	for _, e := range g.Env {
		if e.Name == "NEXTEST_PROFILE" && e.Value != "" {
			return e.Value
		}
	}
	return "default"
}

// profileFlag is the value of nextest's first --profile or -P.
func profileFlag(words []string) (string, bool) {
	for i, w := range words {
		if v, ok := strings.CutPrefix(w, "--profile="); ok {
			return v, true
		}
		if (w == "--profile" || w == "-P") && i+1 < len(words) {
			return words[i+1], true
		}
	}
	return "", false
}

// measureCoverage turns on coverage: auto for the test gates whose runner gives it cheaply: a go
// test gauntlet can ask for a cover profile (the same run, no second build; docs/coverage.md).
// Lines the change did not touch that its tests stop covering are then a finding at the stop.
func measureCoverage(projects []Project) {
	for i := range projects {
		for j := range projects[i].Gates {
			g := &projects[i].Gates[j]
			probe := gates.Gate{Name: g.Name, Kind: gates.KindCheck, Run: g.Run, Coverage: gates.CoverageAuto}
			if plan := engine.PlanCoverage(probe, engine.PlanCensus(probe)); plan.Measured() && plan.Unmeasured == "" && g.Tests == "" {
				g.Coverage = gates.CoverageAuto
			}
		}
	}
}
