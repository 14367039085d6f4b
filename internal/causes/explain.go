package causes

import (
	"regexp"

	"github.com/gauntlet-dev/gauntlet/internal/preflight"
)

// The fixes that depend on the line: the tool or version it names, the project around the gate.

var languageVersion = regexp.MustCompile(`^\d+\.\d+$`)

var golangciGo = regexp.MustCompile(`the Go language version \((go\S+)\) used to build golangci-lint is lower than the targeted Go version \((?:go)?(\d[^)\s]*)\)`)

// explainGolangciGo names the Go golangci-lint was built with and the one to rebuild it with,
// with the install command preflight gives for golangci-lint.
func explainGolangciGo(line string, _ Options) (summary, fix string) {
	m := golangciGo.FindStringSubmatch(line)
	install, ok := preflight.InstallHint("golangci-lint")
	if m == nil || !ok {
		return "", ""
	}
	target := m[2]
	if languageVersion.MatchString(target) {
		target += ".0" // a language version (go 1.27): its first release is go1.27.0
	}
	summary = "golangci-lint was built with " + m[1] + ", older than the go " + m[2] + " go.mod targets"
	fix = "rebuild it with Go " + target + " or newer (GOTOOLCHAIN=go" + target + " " + install + "), or install a release binary built with it"
	return summary, fix
}
