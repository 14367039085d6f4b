package integrity

import (
	"strings"
	"testing"
)

// Which gates a shadowing file matters to, and which files shadow: a make gate's makefiles, a
// Python gate's standard-named modules and conftest.py beside the tests, never a package's own
// files in an environment of installed packages.
func TestShadowPatterns(t *testing.T) {
	for cmd, want := range map[string][2]bool{
		"make test":                     {true, true},
		"cd sub && gmake -j4 check":     {true, true},
		"python3 -m pytest -q":          {false, true},
		"pytest":                        {false, true},
		".venv/bin/python -m unittest":  {false, true},
		"uv run pytest":                 {false, true},
		"go test ./...":                 {false, false},
		"npm test":                      {false, false},
		"cmake --build build":           {false, false},
		"echo makefile python-is-great": {false, false},
	} {
		if got := [2]bool{makeGate.MatchString(cmd), pythonGate.MatchString(cmd)}; got != want {
			t.Errorf("%q: runs make, Python = %v, want %v", cmd, got, want)
		}
	}
	pats := shadowPatterns(true, true)
	for p, want := range map[string]bool{
		"GNUmakefile": true, "makefile": true, "Makefile": false, "sub/GNUmakefile": false,
		"unittest.py": true, "tests/os.py": true, "unittest/__init__.py": true, "helper.py": false,
		"secrets.py": false, "src/unittest.py": false, "conftest.py": true, "tests/unit/conftest.py": true,
	} {
		if got := matchesAny(p, pats); got != want {
			t.Errorf("%s shadows: %v, want %v", p, got, want)
		}
	}
	for _, p := range []string{".venv/lib/python3.12/site-packages/numpy/conftest.py", "node_modules/x/GNUmakefile"} {
		if !installed(p) {
			t.Errorf("%s is an installed package's", p)
		}
	}
	if f := shadowFinding("unittest/__init__.py", "is not tracked"); !strings.Contains(f.Message, "in place of the module unittest;") {
		t.Errorf("message: %s", f.Message)
	}
}

// An ignored Go test file is named for gates that run go test, in the folders go test enters.
func TestIgnoredGoTestScope(t *testing.T) {
	for cmd, want := range map[string]bool{"go test ./...": true, "go test -race ./pkg": true, "gotestsum -- ./...": true,
		"go vet ./...": false, "go build ./...": false, "make test": false} {
		if got := goTestGate.MatchString(cmd); got != want {
			t.Errorf("%q runs go test: %v, want %v", cmd, got, want)
		}
	}
	for p, want := range map[string]bool{"zz_test.go": false, "pkg/a/zz_test.go": false, "_attic/x_test.go": true, "pkg/.cache/x_test.go": true} {
		if got := outsidePackages(p); got != want {
			t.Errorf("outsidePackages(%s) = %v, want %v", p, got, want)
		}
	}
}
