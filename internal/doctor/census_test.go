package doctor

import (
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
)

// A test gate whose tests cannot be counted is a warning naming the gate and what to do; a test
// gate whose census can be read, or another gate, says nothing.
func TestCensusChecks(t *testing.T) {
	cfg := &config.Config{Gates: []gates.Gate{
		{Name: "test", Kind: gates.KindCheck, Run: "make test", Enabled: true},
		{Name: "unit", Kind: gates.KindCheck, Run: "go test ./...", Enabled: true},
		{Name: "e2e", Kind: gates.KindCheck, Run: "make e2e", Tests: "reports/*.xml", Enabled: true},
		{Name: "lint", Kind: gates.KindCheck, Run: "golangci-lint run", Enabled: true},
		{Name: "off-test", Kind: gates.KindCheck, Run: "./x.sh", Enabled: false},
	}}
	checks := censusChecks(cfg)
	if len(checks) != 1 {
		t.Fatalf("checks = %+v, want one for the gate test", checks)
	}
	c := checks[0]
	if c.Level != Warn || c.Name != "tests" || !strings.HasPrefix(c.Message, "test: its tests cannot be counted") ||
		!strings.Contains(c.Fix, "tests: PATH") {
		t.Errorf("check = %+v", c)
	}
}

// A gate with coverage: auto whose command runs no go test has no coverage: a warning naming the
// gate and what to do; coverage asked of go test, or named reports, say nothing.
func TestCoverageChecks(t *testing.T) {
	cfg := &config.Config{Gates: []gates.Gate{
		{Name: "js-test", Kind: gates.KindCheck, Run: "npx vitest run", Coverage: gates.CoverageAuto, Enabled: true},
		{Name: "go-test", Kind: gates.KindCheck, Argv: []string{"go", "test", "./..."}, Coverage: gates.CoverageAuto, Enabled: true},
		{Name: "py-test", Kind: gates.KindCheck, Run: "make test", Coverage: "coverage.json", Enabled: true},
	}}
	var got []Check
	for _, c := range censusChecks(cfg) {
		if c.Name == "coverage" {
			got = append(got, c)
		}
	}
	if len(got) != 1 {
		t.Fatalf("coverage checks = %+v, want one for js-test", got)
	}
	if c := got[0]; c.Level != Warn || !strings.HasPrefix(c.Message, "js-test: its coverage is not read: ") || !strings.Contains(c.Fix, "coverage: PATH") {
		t.Errorf("check = %+v", c)
	}
}
