package causes

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Each output in testdata/ was captured by running the tool here in the broken environment
// (a proxy on a closed local port, a registry host that does not resolve, no node_modules, a
// go.mod asking for a newer Go, /dev/full, a heap limit, a test binary sent SIGKILL as the OOM
// killer would, a wheel requiring a newer Python, ...), except those marked written,
// which are copied byte for byte from the tool's documented format because the tool does not
// install here or the condition cannot be produced on this machine.
var positives = []struct {
	file     string
	exitCode int
	id       string
	line     string // the matched line, as reported
	written  bool
}{
	{"cargo-registry-unreachable.txt", 101, "cargo-registry-unreachable", "failed to download from `https://index.crates.io/config.json`", false},
	{"cargo-offline-missing-dependency.txt", 101, "cargo-offline-missing-dependency", "As a reminder, you're using offline mode (--offline) which can sometimes cause surprising resolution failures, if this error is too confusing you may wish to retry without `--offline`.", false},
	{"go-toolchain-download-failed.txt", 1, "go-toolchain-download-failed", `go: download go1.27.0: golang.org/toolchain@v0.0.1-go1.27.0.linux-amd64: Get "http://127.0.0.1:9/golang.org/toolchain/@v/v0.0.1-go1.27.0.linux-amd64.zip": dial tcp 127.0.0.1:9: connect: connection refused`, false},
	{"go-proxy-unreachable.txt", 1, "go-proxy-unreachable", `main.go:3:8: github.com/google/uuid@v1.6.0: Get "http://127.0.0.1:9/github.com/google/uuid/@v/v1.6.0.zip": dial tcp 127.0.0.1:9: connect: connection refused`, false},
	{"go-proxy-unreachable-dns.txt", 1, "go-proxy-unreachable", `main.go:3:8: github.com/google/uuid@v1.6.0: Get "https://proxy.golang.invalid/github.com/google/uuid/@v/v1.6.0.zip": dial tcp: lookup proxy.golang.invalid on 10.255.255.53:53: no such host`, false},
	// govulncheck here, with vuln.go.dev not resolving.
	{"govulncheck-db-unreachable.txt", 1, "govulncheck-db-unreachable", `govulncheck: fetching vulnerabilities: Get "https://vuln.go.dev/index/modules.json.gz": dial tcp: lookup vuln.go.dev on 10.255.255.53:53: no such host`, false},
	{"go-module-lookup-disabled.txt", 1, "go-module-lookup-disabled", "main.go:3:8: module lookup disabled by GOPROXY=off", false},
	{"npm-registry-unreachable.txt", 1, "npm-registry-unreachable", "npm error code ECONNREFUSED", false},
	{"npm-registry-unreachable-enotfound.txt", 1, "npm-registry-unreachable", "npm error code ENOTFOUND", false},
	{"pnpm-registry-unreachable.txt", 1, "pnpm-registry-unreachable", "ERR_PNPM_META_FETCH_FAIL GET http://127.0.0.1:9/left-pad: request to http://127.0.0.1:9/left-pad failed, reason: connect ECONNREFUSED 127.0.0.1:9", false},
	{"yarn-registry-unreachable.txt", 1, "yarn-registry-unreachable", "error Error: getaddrinfo ENOTFOUND registry.npmjs.invalid", false},
	{"node-registry-unreachable.txt", 1, "node-registry-unreachable", "[cause]: Error: getaddrinfo EAI_AGAIN registry.npmjs.org", true},
	{"pip-index-unreachable.txt", 1, "pip-index-unreachable", "ERROR: Could not find a version that satisfies the requirement requests (from versions: none)", false},
	// pip's own read timeout (--timeout) on an index that accepts the connection and never answers.
	{"pip-index-unreachable-read-timeout.txt", 1, "pip-index-unreachable", "ERROR: Could not find a version that satisfies the requirement requests (from versions: none)", false},
	{"uv-index-unreachable.txt", 2, "uv-index-unreachable", "error: Failed to fetch: `https://pypi.org/simple/requests/`", true},
	{"docker-daemon-unreachable.txt", 1, "docker-daemon-unreachable", "repo_test.go:31: start postgres: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?", true},
	{"go-toolchain-too-old.txt", 1, "go-toolchain-too-old", "go: go.mod requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)", false},
	{"rust-toolchain-too-old.txt", 101, "rust-toolchain-too-old", "error: rustc 1.95.0 is not supported by the following package:", false},
	{"python-version-unsupported.txt", 1, "python-version-unsupported", "ERROR: Package 'pyold' requires a different Python: 3.11.7 not in '>=3.99'", false},
	{"node-engine-unsupported.txt", 1, "node-engine-unsupported", "npm error code EBADENGINE", false},
	{"node-engine-unsupported-pnpm.txt", 1, "node-engine-unsupported", "ERR_PNPM_UNSUPPORTED_ENGINE Unsupported environment (bad pnpm and/or Node.js version)", false},
	// pytest 7.2.1 and pre-commit 3.0.4 (Debian's) run here on a project asking for more.
	{"pytest-too-old.txt", 4, "pytest-too-old", "ERROR: /tmp/cap/pymin/pyproject.toml: 'minversion' requires pytest-8.0, actual pytest-7.2.1'", false},
	{"pre-commit-too-old.txt", 1, "pre-commit-too-old", "=====> pre-commit version 99.0.0 is required but version 3.0.4 is installed. Perhaps run `pip install --upgrade pre-commit`.", false},
	// The line pnpm printed on two real projects (issue 19): its signature check cannot be made
	// to fail here, where the registry answers.
	{"pnpm-version-switch-refused.txt", 1, "pnpm-version-switch-refused", "ERR_PNPM_PNPM_ENGINE_IDENTITY_UNVERIFIABLE Refusing to run pnpm@11.0.1: its npm registry signature could not be verified", false},
	{"npx-install-prompt.txt", 1, "npx-install-prompt", `npm error npx canceled due to missing packages and no YES option: ["vitest@4.1.12"]`, false},
	{"npx-install-prompt-npm9.txt", 1, "npx-install-prompt", "Need to install the following packages:", true},
	{"node-modules-missing.txt", 127, "node-modules-missing", "sh: 1: vitest: not found", false},
	{"node-modules-missing-pnpm-exec.txt", 254, "node-modules-missing", `ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL Command "vitest" not found`, false},
	{"node-modules-missing-pnpm-test.txt", 1, "node-modules-missing", "sh: 1: vitest: not found", false},
	{"node-modules-missing-yarn.txt", 127, "node-modules-missing", "/bin/sh: 1: jest: not found", false},
	{"python-env-missing.txt", 1, "python-env-missing", "/tmp/cap/venv/bin/python: No module named pytest", false},
	// The tox env's pytest flags from a plugin (pytest-xdist's --numprocesses), run by a pytest
	// without it (black's test gate on a machine with the system's pytest alone).
	{"pytest-plugin-missing.txt", 4, "pytest-plugin-missing", "pytest: error: unrecognized arguments: --numprocesses auto", false},
	{"go-toolchain-too-old-go120.txt", 1, "go-toolchain-too-old", "/work/app/go.mod:3: invalid go version '1.22.0': must match format 1.23", true},
	// golangci-lint built by an older Go than go.mod targets, and its own --timeout running out
	// on a loaded machine (exit 3 and 4, golangci-lint's own codes), as printed on a real
	// project; golangci-lint does not install here.
	{"golangci-lint-go-too-old.txt", 3, "golangci-lint-go-too-old", "Error: can't load config: the Go language version (go1.26) used to build golangci-lint is lower than the targeted Go version (1.27.0)", true},
	{"golangci-lint-timeout.txt", 4, "golangci-lint-timeout", `level=error msg="Timeout exceeded: try increasing it by passing --timeout option"`, true},
	{"tool-missing.txt", 127, "tool-missing", "sh: 1: go: not found", false},
	{"tool-missing-bash.txt", 127, "tool-missing", "bash: line 1: cargo: command not found", false},
	// make's /bin/sh not finding uv, and ruff, in projects that do not use uv (captured here).
	{"tool-missing-uv.txt", 127, "tool-missing", "/bin/sh: 1: uv: not found", false},
	{"tool-missing-ruff.txt", 127, "tool-missing", "/bin/sh: 1: ruff: not found", false},
	{"tool-missing-golangci-lint.txt", 127, "tool-missing", "sh: 1: golangci-lint: not found", false},
	// The same tool missing, in the words of the program that looked for it (captured here:
	// GNU make 4.3 running a recipe without a shell, directly and from a recursive make, zsh 5.9,
	// coreutils env in the C and a UTF-8 locale), and in older GNU make's (its manual's wording).
	{"tool-missing-make.txt", 2, "tool-missing", "make: ruff: No such file or directory", false},
	{"tool-missing-make-recursive.txt", 2, "tool-missing", "make[1]: ruff: No such file or directory", false},
	{"tool-missing-make-old.txt", 2, "tool-missing", "make: ruff: Command not found", true},
	{"tool-missing-zsh.txt", 127, "tool-missing", "zsh:1: command not found: uv", false},
	{"tool-missing-env.txt", 127, "tool-missing", "env: 'uv': No such file or directory", false},
	{"tool-missing-env-utf8.txt", 127, "tool-missing", "env: \u2018uv\u2019: No such file or directory", false},
	{"playwright-browsers-missing.txt", 1, "playwright-browsers-missing", "browserType.launch: Executable doesn't exist at /tmp/cap/pwhome/.cache/ms-playwright/chromium_headless_shell-1148/chrome-linux/headless_shell", false},
	{"playwright-host-deps-missing.txt", 1, "playwright-host-deps-missing", "║ Host system is missing dependencies to run browsers. ║", true},
	{"cypress-binary-missing.txt", 1, "cypress-binary-missing", "No version of Cypress is installed in: /tmp/cap/cyhome/.cache/Cypress/13.17.0/Cypress", false},
	{"cypress-server-not-running.txt", 1, "cypress-server-not-running", "Cypress could not verify that this server is running:", true},
	{"file-watchers-exhausted.txt", 1, "file-watchers-exhausted", "Error: ENOSPC: System limit for number of file watchers reached, watch '/work/app/src'", true},
	{"disk-full.txt", 1, "disk-full", "cp: error writing '/dev/full': No space left on device", false},
	{"node-heap-out-of-memory.txt", 134, "node-heap-out-of-memory", "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", false},
	// V8 giving up on garbage collection near the limit, and a worker thread reaching it (node
	// 20 here: a worker of its own, and vitest's threads pool, whose workers inherit the limit).
	{"node-heap-out-of-memory-ineffective.txt", 134, "node-heap-out-of-memory", "FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory", false},
	{"node-heap-out-of-memory-worker.txt", 1, "node-heap-out-of-memory", "Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory", false},
	{"node-heap-out-of-memory-vitest-worker.txt", 1, "node-heap-out-of-memory", "Error: Worker terminated due to reaching memory limit: JS heap out of memory", false},
	{"go-out-of-memory.txt", 2, "go-out-of-memory", "fatal error: out of memory", false},
	{"oom-killed.txt", 137, "oom-killed", "Killed", false},
	{"oom-killed-child.txt", 1, "oom-killed-child", "signal: killed", false},
	{"oom-killed-child-cargo.txt", 101, "oom-killed-child", "process didn't exit successfully: `/tmp/cap/neg/rkill/target/debug/deps/rkill-12cf6356beb34fce` (signal: 9, SIGKILL: kill)", false},
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCapturedOutputs(t *testing.T) {
	for _, tc := range positives {
		t.Run(tc.file, func(t *testing.T) {
			got := Match(readTestdata(t, tc.file), tc.exitCode)
			if got == nil {
				t.Fatalf("no cause found, want %s", tc.id)
			}
			if got.ID != tc.id || got.Line != termtext.FirstBytes(tc.line, maxLineBytes) {
				t.Errorf("cause = %s on %q\nwant %s on %q", got.ID, got.Line, tc.id, tc.line)
			}
			sig := signature(t, tc.id)
			if sig.explain != nil {
				if got.Summary == "" || got.Fix == "" {
					t.Errorf("summary/fix = %q / %q, want both explained", got.Summary, got.Fix)
				}
			} else if got.Summary != sig.Summary || got.Fix != sig.Fix {
				t.Errorf("summary/fix = %q / %q, want the catalogue's", got.Summary, got.Fix)
			}
		})
	}
}

// Every entry is pinned by at least one output, and every output file is used.
func TestEverySignatureHasAnOutput(t *testing.T) {
	covered := map[string]bool{}
	used := map[string]bool{}
	for _, tc := range positives {
		covered[tc.id] = true
		used[tc.file] = true
	}
	for _, s := range Catalogue() {
		if !covered[s.ID] {
			t.Errorf("signature %s has no captured output in testdata", s.ID)
		}
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && !used[e.Name()] {
			t.Errorf("testdata/%s is not asserted by any test", e.Name())
		}
	}
}

// Ordinary failing outputs, captured from real tools here: failing tests (some of whose own
// clients cannot connect, resolve a host or import a module), compile and vet errors, a
// package that does not exist, and a retry warning followed by a real failure.
func TestOrdinaryFailuresAreNotCauses(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "negative"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 10 {
		t.Fatalf("only %d negative outputs", len(entries))
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			out := readTestdata(t, filepath.Join("negative", e.Name()))
			for _, code := range []int{1, 2, 101, 127, 137} {
				if got := Match(out, code); got != nil {
					t.Errorf("exit %d: matched %s on %q", code, got.ID, got.Line)
				}
			}
		})
	}
}

// A signature is an environment failure only when the tool itself gives up: none of them may
// match the ordinary output of a passing or failing run of any other sample either.
func TestSignaturesDoNotCrossMatch(t *testing.T) {
	for _, tc := range positives {
		out := readTestdata(t, tc.file)
		r := NewReader(Options{})
		for line := range strings.SplitSeq(out, "\n") {
			r.Line([]byte(line))
		}
		for i, s := range catalogue() {
			if r.left[i] == 0 && s.ID != tc.id && !allowedOverlap(tc.id, s.ID) {
				t.Errorf("%s also matches %s", tc.file, s.ID)
			}
		}
	}
}

// allowedOverlap lists entries that also complete on another's output and are ordered after it:
// the more specific one wins by catalogue order.
func allowedOverlap(want, also string) bool {
	pairs := map[[2]string]bool{
		{"file-watchers-exhausted", "disk-full"}:                 true,
		{"go-toolchain-download-failed", "go-proxy-unreachable"}: true,
	}
	return pairs[[2]string{want, also}]
}

func TestExitCodeCondition(t *testing.T) {
	out := readTestdata(t, "oom-killed.txt")
	if got := Match(out, 1); got != nil {
		t.Errorf("a \"Killed\" line with exit 1 is %s; only exit 137 is the OOM killer's mark", got.ID)
	}
	if got := Match(out, 137); got == nil || got.ID != "oom-killed" {
		t.Errorf("exit 137: %v", got)
	}
}

func TestAllPatternsMustMatch(t *testing.T) {
	// pip's give-up line alone is a typo in a requirement, not a network problem.
	if got := Match("ERROR: Could not find a version that satisfies the requirement reqests (from versions: none)\n", 1); got != nil {
		t.Errorf("matched %s", got.ID)
	}
}

func TestReaderFinish(t *testing.T) {
	r := NewReader(Options{})
	r.Line([]byte("sh: 1: vitest: not found"))
	o := gates.Outcome{ExitCode: 127}
	r.Finish(&o)
	if o.Cause == nil || o.Cause.ID != "node-modules-missing" {
		t.Fatalf("cause = %+v", o.Cause)
	}
	// A cause set by another reader stays.
	other := &gates.Cause{ID: "first"}
	o = gates.Outcome{ExitCode: 127, Cause: other}
	r.Finish(&o)
	if o.Cause != other {
		t.Errorf("cause replaced: %+v", o.Cause)
	}
	// Nothing matched: nothing set.
	o = gates.Outcome{ExitCode: 1}
	NewReader(Options{}).Finish(&o)
	if o.Cause != nil {
		t.Errorf("cause without a match: %+v", o.Cause)
	}
}

func TestLongLinesAreBounded(t *testing.T) {
	line := strings.Repeat("x", 100_000) + " No space left on device"
	if got := Match(line, 1); got != nil {
		t.Errorf("a match past the first %d bytes of a line counted: %s", maxMatchBytes, got.ID)
	}
	got := Match("write: No space left on device "+strings.Repeat("y", 10_000), 1)
	if got == nil || len(got.Line) > maxLineBytes {
		t.Fatalf("cause %+v", got)
	}
}

func TestCatalogueIsWellFormed(t *testing.T) {
	ids := map[string]bool{}
	idPattern := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, s := range Catalogue() {
		if !idPattern.MatchString(s.ID) || ids[s.ID] {
			t.Errorf("bad or duplicate id %q", s.ID)
		}
		ids[s.ID] = true
		if s.Ecosystem == "" || s.Summary == "" || s.Fix == "" || len(s.Patterns) == 0 {
			t.Errorf("%s: ecosystem, summary, fix and patterns are all required", s.ID)
		}
		if strings.ContainsAny(s.Summary+s.Fix, "\n") {
			t.Errorf("%s: summary and fix must be one line", s.ID)
		}
		for _, p := range s.Patterns {
			if len(p.Literals) == 0 || slices.Contains(p.Literals, "") {
				t.Errorf("%s: every pattern needs non-empty literals to prefilter lines", s.ID)
			}
			if p.Regexp == "" {
				continue
			}
			re := regexp.MustCompile(p.Regexp)
			_ = re
		}
	}
}

func signature(t *testing.T, id string) Signature {
	t.Helper()
	for _, s := range Catalogue() {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no signature %s", id)
	return Signature{}
}

func BenchmarkReader(b *testing.B) {
	for name, line := range map[string]string{
		"go-test-log": "    gt_test.go:11: Add(1, 1) = 2, want 3 and some more ordinary output text",
		"plain":       "a line of gate output 0123456789",
		"zeros":       "000000000000000000000000000000000000000000000000000000000000000",
	} {
		b.Run(name, func(b *testing.B) {
			l := []byte(line)
			b.SetBytes(int64(len(l)))
			r := NewReader(Options{})
			for b.Loop() {
				r.Line(l)
			}
		})
	}
}

// docs/causes.md lists every entry in its table, so that users can see what is excused and why.
func TestDocsListTheCatalogue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "causes.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Catalogue() {
		if !strings.Contains(string(b), "| `"+s.ID+"` |") {
			t.Errorf("docs/causes.md has no table row for %s", s.ID)
		}
	}
}

// golangci-lint refusing a module newer than the Go it was built with names the Go to rebuild it
// with, and the install command preflight gives for golangci-lint.
func TestGolangciLintGoTooOldNamesTheGo(t *testing.T) {
	got := Match(readTestdata(t, "golangci-lint-go-too-old.txt"), 3)
	if got == nil || got.ID != "golangci-lint-go-too-old" {
		t.Fatalf("cause %+v", got)
	}
	want := "GOTOOLCHAIN=go1.27.0 go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"
	if !strings.Contains(got.Fix, want) || !strings.Contains(got.Summary, "go1.26") {
		t.Errorf("summary %q, fix %q; want the builder's Go named and %q", got.Summary, got.Fix, want)
	}
	// A go directive of two numbers is a language version: its first toolchain is .0.
	got = Match("Error: can't load config: the Go language version (go1.26) used to build golangci-lint is lower than the targeted Go version (1.27)", 3)
	if got == nil || !strings.Contains(got.Fix, "GOTOOLCHAIN=go1.27.0 ") {
		t.Errorf("cause %+v", got)
	}
}
