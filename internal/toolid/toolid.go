// Package toolid names the programs a gate runs and the toolchain its language implies, so that
// a pass remembered for a gate is a pass of the same tools: another `grep` first on PATH, a
// rebuilt linter or an upgraded Go make it a different gate.
//
// A program is named by the name the gate calls it by and the SHA-256 of the file PATH resolves
// it to (a script's interpreter, from its #! line, the same way): the same tools on another
// machine or in another worktree have the same name, so the shared and remote caches still
// answer across them. Hashing a large binary on every run would cost more than the run saves, so
// each file's digest is remembered beside the user's key (internal/seal), under what changes
// whenever the file is replaced or rewritten: its path, device, inode, size, and modification and
// change times (a change time its owner cannot set back). A Go gate adds what `go env` says of
// the toolchain, as Go's own test cache does.
package toolid

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// maxPrograms bounds how many commands of one gate are named: a long script is still keyed by
// its text, and by the first programs it runs.
const maxPrograms = 32

// ToolchainTimeout bounds one `go env` call; it runs at most once per distinct go, directory and
// environment in a run.
const ToolchainTimeout = 10 * time.Second

// goTools are programs whose result depends on the Go toolchain they find on PATH (they load
// packages through `go list`), besides go itself.
var goTools = []string{"go", "golangci-lint", "staticcheck", "govulncheck", "gotestsum", "gopls", "revive", "errcheck"}

// goEnvVars are what `go env` reports of the toolchain and of the settings that change what it
// builds: the version (GOTOOLCHAIN and a go.mod toolchain line can switch it without the go
// binary on PATH changing), the target and the flags. Nothing that names a place on this
// machine (GOROOT): the same toolchain elsewhere is the same.
var goEnvVars = []string{"GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64"}

// Resolver names the tools of a run's gates; what it learns from `go env` is kept for the run.
type Resolver struct {
	mu         sync.Mutex
	toolchains map[string]*toolchain
	digests    *digestMemo
}

type toolchain struct {
	once sync.Once
	text string
	err  error
}

// New returns a Resolver for one run.
func New() *Resolver { return &Resolver{toolchains: map[string]*toolchain{}, digests: &digestMemo{}} }

// Identity describes the tools gate g runs when started in root with the base environment env
// (its own env is layered on top, as the runner does): one line per program, interpreter and
// toolchain. An error means the tools could not be told (a `go env` that failed or timed out):
// the caller must not remember a pass then.
func (r *Resolver) Identity(ctx context.Context, g gates.Gate, root string, env []string) (string, error) {
	env = slices.Concat(env, g.Env)
	dir := filepath.Join(root, filepath.FromSlash(g.Dir))
	var b strings.Builder
	var goFound bool
	for _, name := range Programs(g) {
		if r.describeProgram(ctx, &b, name, dir, env) {
			goFound = goFound || slices.Contains(goTools, filepath.Base(name))
		}
	}
	if goFound {
		text, err := r.goToolchain(ctx, dir, env)
		if err != nil {
			return "", fmt.Errorf("the Go toolchain of gate %s: %w", g.Name, err)
		}
		b.WriteString(text)
	}
	return b.String(), nil
}

// describeProgram writes the lines of a program: its identity, and its interpreter when it is a
// script. found says the program was found.
func (r *Resolver) describeProgram(ctx context.Context, b *strings.Builder, name, dir string, env []string) (found bool) {
	path, id, line, known := r.resolve(ctx, name, dir, env)
	fmt.Fprintf(b, "program %q %s\n", name, id)
	if path == "" {
		return false
	}
	fields := shebangFields(line)
	if !known {
		fields = shebang(path)
	}
	if interp := r.interpreter(ctx, fields, dir, env); interp != "" {
		fmt.Fprintf(b, "interpreter %s\n", interp)
	}
	return true
}

// Programs lists the programs gate g starts by name: argv's first word, or the command names of
// the shell command (skipping assignments and the wrappers exec, command, env, nohup, nice,
// time), or a review gate's CLI. Names that are not plain words (built from variables) are left
// out: nothing can be known of them before the gate runs.
func Programs(g gates.Gate) []string {
	switch {
	case g.Kind == gates.KindReview && g.Review != nil:
		switch g.Review.CLI {
		case "claude", "codex", "gemini":
			return []string{g.Review.CLI}
		}
		return shellPrograms(g.Review.CLI)
	case len(g.Argv) > 0:
		return []string{g.Argv[0]}
	case g.Run != "":
		return shellPrograms(g.Run)
	}
	return nil
}

// wrappers run the command that follows them; their own options are skipped.
var wrappers = map[string]bool{"exec": true, "command": true, "builtin": true, "env": true, "nohup": true, "nice": true, "time": true}

// optionsWithValue are the wrappers' options whose value is the next word.
var optionsWithValue = map[string][]string{"nice": {"-n"}, "env": {"-u", "-C", "-S"}}

func shellPrograms(script string) []string {
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		// Not something sh would run either; its first word is the best guess.
		if f := strings.Fields(script); len(f) > 0 {
			return []string{f[0]}
		}
		return nil
	}
	var out []string
	syntax.Walk(file, func(n syntax.Node) bool {
		if len(out) >= maxPrograms {
			return false
		}
		if call, ok := n.(*syntax.CallExpr); ok {
			out = appendProgram(out, call.Args)
		}
		return true
	})
	return out
}

// appendProgram appends the program a simple command runs, once: its first word past the
// wrappers, unless that word is built at run time.
func appendProgram(out []string, args []*syntax.Word) []string {
	for i := 0; i < len(args); i++ {
		word := args[i].Lit()
		if word == "" {
			return out // built at run time
		}
		if wrappers[word] {
			i = skipWrapperArgs(word, args, i)
			continue
		}
		if !slices.Contains(out, word) {
			out = append(out, word)
		}
		return out
	}
	return out
}

// skipWrapperArgs skips the options (with their values) of the wrapper at args[i], and env's
// NAME=value arguments: the index of the last word skipped.
func skipWrapperArgs(wrapper string, args []*syntax.Word, i int) int {
	for i+1 < len(args) {
		next := args[i+1].Lit()
		if !strings.HasPrefix(next, "-") && !(wrapper == "env" && strings.Contains(next, "=")) {
			break
		}
		i++
		if slices.Contains(optionsWithValue[wrapper], next) {
			i++
		}
	}
	return i
}

// resolve finds name as the runner's lookup does (the gate's PATH; a name with a slash is
// relative to dir) and names the file found by its content; line is its #! line, known unless
// it could not be read.
func (r *Resolver) resolve(ctx context.Context, name, dir string, env []string) (path, id, line string, known bool) {
	path = lookPath(name, dir, env)
	if path == "" {
		return "", "not found", "", false
	}
	id, line, known = r.digests.file(ctx, path)
	return path, id, line, known
}

func lookPath(name, dir string, env []string) string {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return name
	}
	pathVar, ok := envValue(env, "PATH")
	if !ok {
		pathVar = "/bin:/usr/bin"
	}
	for _, entry := range filepath.SplitList(pathVar) {
		if candidate := inPathEntry(entry, name, dir); isExecutable(candidate) {
			return candidate
		}
	}
	return ""
}

// inPathEntry is where name would be in an entry of PATH: an empty entry is the directory, and
// a relative one is relative to dir.
func inPathEntry(entry, name, dir string) string {
	if entry == "" {
		entry = "."
	}
	candidate := filepath.Join(entry, name)
	if !filepath.IsAbs(candidate) {
		candidate = filepath.Join(dir, candidate)
	}
	return candidate
}

// isExecutable says whether path is a regular file someone may execute.
func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

// interpreter names the program a script's #! line (its words, fields) starts (through
// /usr/bin/env, the program env looks up), or "" for a binary.
func (r *Resolver) interpreter(ctx context.Context, fields []string, dir string, env []string) string {
	if len(fields) == 0 {
		return ""
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		if p, ok := envProgram(fields[1:]); ok {
			prog = p
		}
	}
	_, id, _, _ := r.resolve(ctx, prog, dir, env)
	return fmt.Sprintf("%q %s", prog, id)
}

// shebangBytes is how much of a file its #! line is looked for in.
const shebangBytes = 256

// shebang is the words of a regular file's #! line, nil when it has none (a binary).
func shebang(path string) []string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	head, _ := bufio.NewReaderSize(f, shebangBytes).Peek(shebangBytes)
	return shebangFields(shebangLine(head))
}

// shebangLine is the #! line at the start of head, "" when head has none.
func shebangLine(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	return string(head)
}

// shebangFields are the words of a #! line after the #!.
func shebangFields(line string) []string {
	if line == "" {
		return nil
	}
	return strings.Fields(line[2:])
}

// envProgram is the program env runs, given env's arguments: the first that is neither an
// option nor an assignment.
func envProgram(args []string) (string, bool) {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			return a, true
		}
	}
	return "", false
}

// goToolchain asks the go the gate would run what toolchain it is, once per go, directory and
// environment.
func (r *Resolver) goToolchain(ctx context.Context, dir string, env []string) (string, error) {
	goPath, goID, _, _ := r.resolve(ctx, "go", dir, env)
	if goPath == "" {
		return "toolchain go not found\n", nil
	}
	memo := sha256.New()
	fmt.Fprintf(memo, "%s\x00%s\x00%s\x00", goPath, goID, dir)
	for _, kv := range env {
		fmt.Fprintf(memo, "%s\x00", kv)
	}
	key := string(memo.Sum(nil))
	r.mu.Lock()
	tc := r.toolchains[key]
	if tc == nil {
		tc = &toolchain{}
		r.toolchains[key] = tc
	}
	r.mu.Unlock()
	tc.once.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, ToolchainTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, goPath, append([]string{"env"}, goEnvVars...)...)
		cmd.Dir = dir
		cmd.Env = env
		cmd.WaitDelay = time.Second
		var out bytes.Buffer
		cmd.Stdout = &limited{w: &out, n: 64 << 10}
		if err := cmd.Run(); err != nil {
			tc.err = fmt.Errorf("go env: %w", err)
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "toolchain go %s\n", goID)
		for i, v := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
			if i < len(goEnvVars) {
				fmt.Fprintf(&b, "go env %s=%q\n", goEnvVars[i], v)
			}
		}
		tc.text = b.String()
	})
	return tc.text, tc.err
}

// limited keeps the first n bytes written and drops the rest.
type limited struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// envValue returns key's value in env, the last entry winning as in a process environment.
func envValue(env []string, key string) (string, bool) {
	for _, kv := range slices.Backward(env) {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
