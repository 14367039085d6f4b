package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

// executeWithin runs p on the process-group executor and fails the test when Execute does not
// return within limit.
func executeWithin(t *testing.T, limit time.Duration, p Process) (Exit, string) {
	t.Helper()
	limit = hangGuard(limit)
	var out bytes.Buffer
	type result struct {
		exit Exit
		err  error
	}
	done := make(chan result, 1)
	go func() {
		exit, err := newGroupExecutor(300*time.Millisecond, nil).Execute(context.Background(), p, &out)
		done <- result{exit, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Execute: %v", r.err)
		}
		return r.exit, out.String()
	case <-time.After(limit):
		t.Fatalf("Execute did not return within %s", limit)
		return Exit{}, ""
	}
}

func shellProcess(dir, script string, stdin []byte) Process {
	p := Process{Argv: []string{"/bin/sh", "-c", script}, Dir: dir, Env: os.Environ()}
	if stdin != nil {
		p.Stdin = bytes.NewReader(stdin)
	}
	return p
}

func TestStdinReachesTheProcess(t *testing.T) {
	t.Parallel()
	input := bytes.Repeat([]byte("0123456789abcdef\n"), 64<<10) // 1 MiB, far over a pipe's buffer
	exit, out := executeWithin(t, 30*time.Second, shellProcess(t.TempDir(), "cat", input))
	if exit.Code != 0 || out != string(input) {
		t.Errorf("exit %d, %d bytes out; want exit 0 and the %d bytes of input back", exit.Code, len(out), len(input))
	}
}

func TestNoStdinIsEmpty(t *testing.T) {
	t.Parallel()
	exit, out := executeWithin(t, 30*time.Second, shellProcess(t.TempDir(), "cat; echo end", nil))
	if exit.Code != 0 || out != "end\n" {
		t.Errorf("exit %d output %q, want exit 0 and only %q", exit.Code, out, "end\n")
	}
}

func TestUnreadStdinDoesNotHoldTheProcess(t *testing.T) {
	t.Parallel()
	input := bytes.Repeat([]byte("x"), 8<<20)
	exit, out := executeWithin(t, 30*time.Second, shellProcess(t.TempDir(), "echo answered; exit 3", input))
	if exit.Code != 3 || strings.TrimSpace(out) != "answered" {
		t.Errorf("exit %d output %q, want exit 3 and %q", exit.Code, out, "answered")
	}
}

func TestEscapedChildHoldingStdinDoesNotHang(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// The child leaves the group with stdin still open and never reads it, so the feed stays
	// blocked on a full pipe after the group is gone.
	script := `setsid sh -c 'echo $$ > ` + pidFile + `; exec sleep 60' & ` +
		`while [ ! -s ` + pidFile + ` ]; do sleep 0.05; done; echo parent done`
	input := bytes.Repeat([]byte("y"), 4<<20)
	exit, out := executeWithin(t, 30*time.Second, shellProcess(dir, script, input))
	testos.Kill(readPid(t, pidFile))
	if exit.Code != 0 || strings.TrimSpace(out) != "parent done" {
		t.Errorf("exit %d output %q, want exit 0 and %q", exit.Code, out, "parent done")
	}
}
