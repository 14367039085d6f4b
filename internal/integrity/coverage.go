package integrity

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Coverage thresholds are read as key and number wherever they are written (a pytest addopts
// string, a Makefile, a workflow, a JSON or TOML table): the value is what matters, so a
// threshold moved or reformatted is no change, and one lowered or gone is.
var (
	// thresholdAnywhere are keys that name a coverage threshold in any file.
	thresholdAnywhere = lazy(`(?i)(--cov-fail-under|--fail-under|fail[_-]under|--min-coverage|min[_-]coverage|coverage[_-]threshold|--threshold[\w-]*|threshold[_-]total|check-coverage)["']?\s*[=:]?\s*["']?(\d+(?:\.\d+)?)`)
	// thresholdJS are the keys of jest's coverageThreshold, vitest's thresholds, nyc and c8, and
	// codecov's target: only in the files that hold them.
	thresholdJS = lazy(`(?i)\b(lines|branches|functions|statements|target|perFile)["']?\s*[=:]\s*["']?(\d+(?:\.\d+)?)`)
)

// coverageFile says whether a file can hold a coverage threshold gauntlet checks.
func coverageFile(p, configName string) bool {
	base := path.Base(p)
	switch {
	case p == configName, base == "pyproject.toml", base == "setup.cfg", base == "tox.ini", base == ".coveragerc",
		base == "pytest.ini", base == "Makefile", base == "makefile", base == "GNUmakefile", base == ".testcoverage.yml",
		base == ".testcoverage.yaml", base == "Taskfile.yml", base == "justfile", base == "noxfile.py":
		return true
	case isWorkflow(p):
		return true
	}
	return jsCoverageFile(base)
}

func jsCoverageFile(base string) bool {
	for _, prefix := range []string{"jest.config.", "vitest.config.", "vite.config.", "karma.conf.", ".nycrc", ".c8rc", "codecov.", ".codecov."} {
		if strings.HasPrefix(base, prefix) {
			return true
		}
	}
	return base == "package.json"
}

// thresholds reads every threshold of a file: key -> values.
func thresholds(data []byte, js bool) map[string][]float64 {
	out := map[string][]float64{}
	text := string(data)
	addThresholds(out, thresholdAnywhere.get(), text)
	if js && mentionsThresholds(text) {
		addThresholds(out, thresholdJS.get(), text)
	}
	return out
}

// mentionsThresholds says whether a JavaScript file may set coverage thresholds at all.
func mentionsThresholds(text string) bool {
	lower := strings.ToLower(text)
	return strings.Contains(lower, "coverage") || strings.Contains(lower, "threshold") || strings.Contains(text, "target")
}

// addThresholds adds the thresholds re finds in text, keyed by their lower-cased, dashed name.
func addThresholds(out map[string][]float64, re *regexp.Regexp, text string) {
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		k := strings.ToLower(strings.TrimLeft(strings.ReplaceAll(m[1], "_", "-"), "-"))
		out[k] = append(out[k], v)
	}
}

// coverage reports thresholds lowered or removed in a file that stays; a deleted file's other
// rules say what its deletion means.
func (j *judge) coverage(f File) {
	if f.Created || f.Deleted {
		return
	}
	oldData, _ := j.ch.Old(cmpOr(f.OldPath, f.Path))
	newData, _ := j.ch.New(f.Path)
	js := jsCoverageFile(path.Base(f.Path))
	old, new := thresholds(oldData, js), thresholds(newData, js)
	for _, k := range sortedKeys(anyMap(old)) {
		j.thresholdLowered(f.Path, newData, k, old[k], new[k])
	}
}

// thresholdLowered reports a threshold removed, or lowered at either end of its values.
func (j *judge) thresholdLowered(file string, newData []byte, k string, ov, nv []float64) {
	switch {
	case len(nv) == 0:
		j.add(gates.RuleCoverageLowered, file, 0, "coverage threshold %s removed (was %s)", k, numbers(ov))
	case slices.Min(nv) < slices.Min(ov) || slices.Max(nv) < slices.Max(ov):
		j.add(gates.RuleCoverageLowered, file, thresholdLine(newData, k, slices.Min(nv)), "coverage threshold %s lowered from %s to %s", k, numbers(ov), numbers(nv))
	}
}

func numbers(vs []float64) string {
	parts := make([]string, 0, len(vs))
	for _, v := range slices.Compact(slices.Sorted(slices.Values(vs))) {
		parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64))
	}
	return strings.Join(parts, ", ")
}

func thresholdLine(data []byte, key string, v float64) int {
	num := strconv.FormatFloat(v, 'f', -1, 64)
	for i, line := range strings.Split(string(data), "\n") {
		l := strings.ToLower(strings.ReplaceAll(line, "_", "-"))
		if strings.Contains(l, key) && strings.Contains(line, num) {
			return i + 1
		}
	}
	return 0
}
