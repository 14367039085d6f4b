// Package covshim makes go test's coverage of packages without tests cheap enough to be on by
// default. Since Go 1.22, `go test -coverprofile` reports a package without test files at 0%,
// and does so on every run, test cache or not, by starting `go tool covdata` twice for each such
// package: each start of the go command computes covdata's build (Go 1.24 and later no longer
// ship it prebuilt), about 0.07 s of CPU, 1.0 s on a project with seven such packages against a
// 1.5 s test run. gauntlet resolves covdata's executable (`go tool -n covdata`, in the gate's
// directory and environment; remembered, see Covdata) and has go test start each tool through
// a shim (-toolexec): `go tool covdata` becomes covdata itself, every other tool runs as go
// started it. The shim is a sh script the flag carries, or on Windows gauntlet's binary (Main).
// -toolexec does not enter go's cache keys (a tool's identity is what it prints for -V=full,
// through the shim), so cached results stay cached. A covdata that fails is never the shim's
// word: the command go asked for runs instead, as go asked.
package covshim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Command is the first argument that starts gauntlet as the shim (main dispatches on it before
// anything else): not a command of the CLI, never shown.
const Command = "__covdata-shim"

// maxOutput bounds what covdata prints that the shim holds before passing it on: a percent line,
// or nothing for textfmt.
const maxOutput = 1 << 20

// covdataTimeout bounds one covdata run: it reads one package's meta-data file, in milliseconds;
// past the bound the command go asked for runs instead.
const covdataTimeout = 2 * time.Minute

// self gives the program the shim is started as, once asked (finding it can search PATH, which
// a command that runs no go test never pays).
var self atomic.Pointer[func() string]

// Enable says the shim can be started as the program path gives (gauntlet's own executable, by
// the name it was started with), for systems without a POSIX shell (Windows, a container
// without /bin/sh). Until it is called, Flag gives nothing there: a test binary that is not
// gauntlet must never be started as the shim.
func Enable(path func() string) {
	once := sync.OnceValue(path)
	self.Store(&once)
}

// Flag is the -toolexec flag that has go test start its tools through the shim, with covdata
// the executable `go tool covdata` runs; "" when no shim can be given (none enabled where the
// shim is gauntlet's binary, a path that cannot be quoted as go splits the flag).
func Flag(covdata string) string { return flagFor(shell(), covdata) }

// shell is the POSIX shell the flag's script runs in: "" where there is none (Windows, a
// container without /bin/sh), where gauntlet's binary is the shim instead. Without a shell every
// tool go starts would fail.
var shell = sync.OnceValue(func() string {
	if runtime.GOOS != "windows" && isExecutable("/bin/sh") {
		return "/bin/sh"
	}
	return ""
})

// flagFor is the flag with sh the shell of the script ("": gauntlet's binary as the shim).
func flagFor(sh, covdata string) string {
	if covdata == "" {
		return ""
	}
	fields := []string{sh, "-c", shScript, "gauntlet-covdata-shim", covdata}
	if sh == "" {
		p := self.Load()
		if p == nil {
			return ""
		}
		fields = []string{(*p)(), Command, covdata}
		if fields[0] == "" {
			return ""
		}
	}
	for i, f := range fields {
		q, ok := quote(f)
		if !ok {
			return ""
		}
		fields[i] = q
	}
	return "-toolexec=" + strings.Join(fields, " ")
}

// shScript is the shim where a POSIX shell is: the flag itself carries it (nothing on disk to
// rewrite), and sh starts in a third of the time gauntlet's binary does, which every tool go
// starts pays (20 to 30 a stop). Its arguments: covdata's path, then the tool's command line.
// It does what Main does; it holds no single quote, so that the flag can quote it whole.
const shScript = `c=$1; shift
case "$2/$3/${1##*/}" in
tool/covdata/go) t=$1; shift 3
  if o=$("$c" "$@" 2>/dev/null); then [ -z "$o" ] || printf "%s\n" "$o"; exit 0; fi
  exec "$t" tool covdata "$@";;
esac
exec "$@"`

// quote makes s one field of go's quoted split (cmd/internal/quoted): a field may be wrapped in
// single or double quotes, with no escapes inside.
func quote(s string) (string, bool) {
	switch {
	case !strings.ContainsAny(s, "'\" \t\n\r"):
		return s, true
	case !strings.Contains(s, "'"):
		return "'" + s + "'", true
	case !strings.Contains(s, `"`):
		return `"` + s + `"`, true
	}
	return "", false
}

// Main runs the shim: args are covdata's path, then the tool's command line as go gives it.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "gauntlet: the covdata shim takes covdata's path and a command")
		return 2
	}
	covdata, tool := args[0], args[1:]
	if isGoToolCovdata(tool) {
		if out, err := runCovdata(covdata, tool[3:]); err == nil {
			stdout.Write(out)
			return 0
		}
	}
	return execTool(tool)
}

// isGoToolCovdata says whether a command is go's `go tool covdata ...`, the go command being
// the one of go's own GOROOT (go names it by its full path).
func isGoToolCovdata(tool []string) bool {
	name := strings.TrimSuffix(filepath.Base(tool[0]), ".exe")
	return name == "go" && filepath.IsAbs(tool[0]) && len(tool) > 3 && tool[1] == "tool" && tool[2] == "covdata"
}

// runCovdata runs covdata with args, holding what it prints: on failure (covdata gone from the
// cache, another version's) nothing of it is shown.
func runCovdata(covdata string, args []string) ([]byte, error) {
	if !filepath.IsAbs(covdata) {
		return nil, errors.New("covdata's path is not absolute")
	}
	ctx, cancel := context.WithTimeout(context.Background(), covdataTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, covdata, args...)
	cmd.Stdout = &limitedBuffer{buf: &out, left: maxOutput}
	cmd.Stderr = io.Discard
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// limitedBuffer keeps at most left bytes, and fails the write past them (the run then counts as
// failed and go's own command runs).
type limitedBuffer struct {
	buf  *bytes.Buffer
	left int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if len(p) > b.left {
		return 0, errors.New("covdata printed more than the shim holds")
	}
	b.left -= len(p)
	return b.buf.Write(p)
}

// execTool runs the tool's command as go started it, as if the shim were not there.
func execTool(tool []string) int {
	if err := replaceProcess(tool); err != nil {
		fmt.Fprintf(os.Stderr, "gauntlet: the covdata shim could not start %s: %v\n", tool[0], err)
		return 1
	}
	return 0
}
