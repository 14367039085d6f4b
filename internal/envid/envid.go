// Package envid names the environment a verdict was reached in: each PATH directory resolved,
// the variables that steer the tools a gate runs (their flags, their startup files, their
// module paths) and Go's own env file, which `go env -w` writes. A pass reached in another
// environment says nothing about this one: an agent that runs gauntlet itself with a fake `go`
// first on PATH, or with GOFLAGS=-run=^$, judges only for itself.
package envid

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// steeringVars are read by the tools themselves (or by the shell and loader that start them) and
// change what a check checks without any file of the project changing.
var steeringVars = []string{
	// Go
	"GOFLAGS", "GOENV", "GOTOOLCHAIN", "GOEXPERIMENT", "GOOS", "GOARCH", "CGO_ENABLED", "GOWORK", "GODEBUG",
	// Node
	"NODE_OPTIONS", "NODE_PATH", "NODE_ENV",
	// Python
	"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "VIRTUAL_ENV",
	// Rust
	"RUSTFLAGS", "RUSTDOCFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "RUSTC_WRAPPER", "RUSTUP_TOOLCHAIN",
	// JVM
	"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS",
	// shells, make and the loader
	"BASH_ENV", "ENV", "SHELLOPTS", "MAKEFLAGS", "MAKEFILES", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
}

// steeringPrefixes name families of such variables (npm_config_ignore_scripts, CARGO_TARGET_…_RUNNER).
var steeringPrefixes = []string{"npm_config_", "NPM_CONFIG_", "CARGO_TARGET_", "PYTEST_"}

// Format is the form of what Steering returns: a record made in another form (an older gauntlet's,
// before Go's env file was read setting by setting, or before npm's and Python's files were read)
// names its keys otherwise, and comparing it with this one would see every such setting changed.
const Format = 3

// Keys of what Steering returns beyond the variables: GoEnvPrefix and a setting's name for each
// setting of Go's env file, GoEnvKey for its lines that are no setting.
const (
	PathKey     = "PATH"
	GoEnvKey    = "go env file"
	GoEnvPrefix = "go env "
)

// goModuleSources are the settings of Go's env file that say only where modules come from and
// how they are fetched: the go.sum check stands whatever they say, and no test is selected or
// built differently. Writing them (a private module's host) is setup, not a check changed.
var goModuleSources = []string{"GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOPROXY", "GOINSECURE", "GOAUTH", "GOSUMDB"}

// maxGoEnvBytes bounds the read of Go's env file: a few settings.
const maxGoEnvBytes = 64 << 10

// Steering is the environment that steers the tools of the project at root, by name: PATH as
// its directories resolved, each steering variable that is set, the digest of each setting of
// Go's env file but where modules come from, and of what steers npm and Python in their own
// files (toolFiles). root "" reads no project file.
func Steering(environ []string, root string) map[string]string {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			env[k] = v // the last one wins, as exec does
		}
	}
	out := map[string]string{PathKey: resolvedPath(env["PATH"])}
	for k, v := range env {
		if slices.Contains(steeringVars, k) || hasPrefix(k, steeringPrefixes) {
			out[k] = v
		}
	}
	for k, d := range goEnvDigests(env) {
		out[k] = d
	}
	for k, d := range toolFiles(env, root) {
		out[k] = d
	}
	return out
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// resolvedPath is PATH with each directory's symlinks resolved: a directory swapped behind the
// same name is another directory.
func resolvedPath(path string) string {
	dirs := filepath.SplitList(path)
	w := newLinkWalker()
	for i, d := range dirs {
		if r, err := w.eval(d); err == nil {
			dirs[i] = r
		}
	}
	return strings.Join(dirs, string(filepath.ListSeparator))
}

// goEnvDigests are the digests of the settings in the file `go env -w` writes ($GOENV, else
// go/env in the user's config directory), by GoEnvPrefix and name, those of goModuleSources left
// out; what is no KEY=VALUE line is digested whole under GoEnvKey. None when there is no file.
func goEnvDigests(env map[string]string) map[string]string {
	file := env["GOENV"]
	if file == "off" {
		return nil
	}
	if file == "" {
		// The gates inherit the process's own environment in every caller: its config directory
		// is theirs.
		dir, err := os.UserConfigDir()
		if err != nil {
			return nil
		}
		file = filepath.Join(dir, "go", "env")
	}
	data, err := safefile.ReadFile(file, maxGoEnvBytes, time.Now().Add(time.Second))
	if err != nil {
		return nil
	}
	out := map[string]string{}
	var rest []string
	for _, line := range strings.Split(string(data), "\n") {
		// Read as the go command reads it (cmd/go/internal/cfg: a line is KEY=VALUE, its key
		// starting with A to Z, the last one wins); any other line is kept whole.
		k, v, ok := strings.Cut(line, "=")
		switch {
		case line == "":
		case !ok || line[0] < 'A' || line[0] > 'Z':
			rest = append(rest, line)
		case !slices.Contains(goModuleSources, k):
			out[GoEnvPrefix+k] = sum(v)
		}
	}
	if len(rest) > 0 {
		out[GoEnvKey] = sum(strings.Join(rest, "\n"))
	}
	return out
}

func sum(s string) string {
	d := sha256.Sum256([]byte(s))
	return "sha256=" + hex.EncodeToString(d[:12])
}

// Portable is the identity of the steering variables and Go's env file, which mean the same on
// every machine: what a cache entry shared between machines is keyed by.
func Portable(steering map[string]string) string {
	return digest(steering, func(k string) bool { return k != PathKey })
}

// Local is the identity of the whole steering environment, PATH included: what a verdict kept on
// this machine is keyed by.
func Local(steering map[string]string) string {
	return digest(steering, func(string) bool { return true })
}

func digest(steering map[string]string, keep func(string) bool) string {
	h := sha256.New()
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range steering {
			if keep(k) && !yield(k) {
				return
			}
		}
	}) {
		h.Write([]byte(k + "\x00" + steering[k] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Changed names what differs between the environment a session started in and now, sorted;
// nil when either is unknown.
func Changed(then, now map[string]string) []string {
	if then == nil || now == nil {
		return nil
	}
	var out []string
	for k, v := range now {
		if then[k] != v {
			out = append(out, k)
		}
	}
	for k := range then {
		if _, ok := now[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
