package engine

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/census"
)

var captureGoEvents = flag.Bool("capture-goevents", false,
	"run go test, plain and with -json, on testdata/goevents/module and rewrite the captured outputs")

// goEventsCases are the go test commands whose outputs testdata/goevents holds: NAME.plain is
// what `go test ARGS` printed (standard output and error, as a gate's output merges them) and
// NAME.json what `go test -json ARGS` printed, both run in module/DIR.
var goEventsCases = []struct {
	name string
	dir  string
	args []string
	env  []string
	// cover: the -json run has -coverprofile too, which gauntlet adds to measure coverage; the
	// filter shows none of what it adds.
	cover bool
}{
	// Packages named: a passing test that logs and one that prints, subtests, skips, a failing
	// test that logs and prints, nested failing subtests, a panic, a build failure, a vet
	// failure, TestMain's prints, a package without tests. -p=1: go test -json prints each
	// package as it ends, go test in their order; one at a time, the two orders are one.
	{name: "packages", dir: ".", args: []string{"-count=1", "-p=1", "./..."}},
	// No package named: go test prints the package's output as it comes, pass or fail.
	{name: "directory-fail", dir: "fail", args: []string{"-count=1"}},
	{name: "directory-pass", dir: "pass", args: []string{"-count=1"}},
	// os.Exit in a test: its log is lost with the test binary. (With packages named, go test
	// prints "exit status 3" only when the binary printed nothing, and -json, which always
	// prints, never does: that line is the one -json cannot give back.)
	{name: "exit", dir: "exits", args: []string{"-count=1"}, env: []string{"GOEVENTS_EXIT=1"}},
	// A test that outlives -timeout: its log is lost with the test binary, its print is not.
	{name: "timeout", dir: ".", args: []string{"-count=1", "-timeout=2s", "./hang"}, env: []string{"GOEVENTS_HANG=1"}},
	// -bench prints as it comes too; a benchmark's results and log show.
	{name: "bench", dir: ".", args: []string{"-count=1", "-run=^$", "-bench=.", "-benchtime=1x", "./bench"}},
	// -v: everything, as go test -v prints it.
	{name: "verbose", dir: ".", args: []string{"-count=1", "-p=1", "-v", "./pass", "./fail", "./panics"}},
	// -coverprofile added by gauntlet: no coverage line, a package without tests said to have none.
	{name: "cover-packages", dir: ".", args: []string{"-count=1", "-p=1", "./pass", "./fail", "./nofiles"}, cover: true},
	{name: "cover-verbose", dir: ".", args: []string{"-count=1", "-p=1", "-v", "./pass", "./fail"}, cover: true},
	{name: "cover-directory", dir: "pass", args: []string{"-count=1"}, cover: true},
}

// Each go test command's -json events, shown by the filter, read line for line as the same
// command printed without -json (timings, goroutine numbers and addresses aside).
func TestGoEventsRenderAsPlainGoTest(t *testing.T) {
	dir := filepath.Join("testdata", "goevents")
	if *captureGoEvents {
		captureGoEventsCases(t, dir)
	}
	for _, tc := range goEventsCases {
		t.Run(tc.name, func(t *testing.T) {
			plain, err := os.ReadFile(filepath.Join(dir, tc.name+".plain"))
			if err != nil {
				t.Fatal(err)
			}
			events, err := os.ReadFile(filepath.Join(dir, tc.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			show := goShowOf(t, tc.args)
			show.HideCoverage = tc.cover
			for _, size := range []int{1, 100, len(events)} {
				var shown, raw bytes.Buffer
				f := newGoEventsFilter(&shown, &raw, show)
				for s := events; len(s) > 0; {
					n := min(size, len(s))
					f.Write(s[:n])
					s = s[n:]
				}
				f.Close()
				if got, want := normalizeGoOutput(shown.String()), normalizeGoOutput(string(plain)); got != want {
					t.Fatalf("pieces of %d: shown\n%s\nwant (go test %s)\n%s", size, got, strings.Join(tc.args, " "), want)
				}
				if !bytes.Equal(raw.Bytes(), events) {
					t.Fatalf("pieces of %d: the census did not get the events as they came", size)
				}
			}
		})
	}
}

// goShowOf is what the census says of `go test ARGS`.
func goShowOf(t *testing.T, args []string) census.GoShow {
	t.Helper()
	reqs := census.Detect(census.Command{Argv: append([]string{"go", "test"}, args...)})
	if len(reqs) != 1 || reqs[0].Display != census.DisplayGoEvents {
		t.Fatalf("go test %q: %+v", args, reqs)
	}
	return reqs[0].Go
}

var (
	goDuration  = regexp.MustCompile(`\b\d+(\.\d+)?s\b`)
	goGoroutine = regexp.MustCompile(`goroutine \d+`)
	goAddress   = regexp.MustCompile(`0x[0-9a-f]+`)
	goBenchTime = regexp.MustCompile(`[ \t]+\d+(\.\d+)? ns/op`)
)

// normalizeGoOutput makes two runs of one command read the same: timings, goroutine numbers,
// addresses.
func normalizeGoOutput(s string) string {
	s = goDuration.ReplaceAllString(s, "0.00s")
	s = goGoroutine.ReplaceAllString(s, "goroutine N")
	s = goBenchTime.ReplaceAllString(s, "\tN ns/op")
	return goAddress.ReplaceAllString(s, "0x?")
}

// coverArgs asks for a cover profile, in a file of the test's, when cover is set.
func coverArgs(cover bool) []string {
	if !cover {
		return nil
	}
	return []string{"-coverprofile=" + filepath.Join(os.TempDir(), "goevents-cover.out")}
}

// captureGoEventsCases runs each case with the go on PATH, as the file's note says.
func captureGoEventsCases(t *testing.T, dir string) {
	module, err := filepath.Abs(filepath.Join(dir, "module"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off", "GOEVENTS_HANG=", "GOEVENTS_EXIT=")
	version, err := exec.Command("go", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.version"), version, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range goEventsCases {
		for ext, args := range map[string][]string{
			".plain": append([]string{"test"}, tc.args...),
			".json":  slices.Concat([]string{"test", "-json"}, coverArgs(tc.cover), tc.args),
		} {
			cmd := exec.Command("go", args...)
			cmd.Dir = filepath.Join(module, tc.dir)
			cmd.Env = append(slices.Clone(env), tc.env...)
			out, _ := cmd.CombinedOutput() // a failing package fails the command, as it should
			// Paths of the machine that ran it would change with every capture.
			out = bytes.ReplaceAll(out, []byte(module), []byte("/module"))
			if err := os.WriteFile(filepath.Join(dir, tc.name+ext), out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
