package lock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holderEnv makes the test binary act as a separate lock holder: it takes the lock in the named
// state dir, says "locked", and sleeps until killed (or a minute has passed, so it never lingers).
const holderEnv = "GAUNTLET_LOCK_TEST_HOLDER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(holderEnv); dir != "" {
		if _, err := Acquire(context.Background(), dir, 0); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func stateDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".gauntlet")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func mustAcquire(t *testing.T, dir string) *Lock {
	t.Helper()
	l, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	t.Cleanup(func() { _ = l.Release() })
	return l
}

func busy(t *testing.T, err error) *BusyError {
	t.Helper()
	var b *BusyError
	if !errors.As(err, &b) {
		t.Fatalf("error = %v, want *BusyError", err)
	}
	return b
}

func TestAcquireReleaseReacquire(t *testing.T) {
	dir := stateDir(t)
	l := mustAcquire(t, dir)

	h, ok := ReadHolder(dir)
	if !ok || h.PID != os.Getpid() {
		t.Errorf("holder = %+v, %v; want this process", h, ok)
	}
	if time.Since(h.Started) > time.Hour || time.Until(h.Started) > time.Hour {
		t.Errorf("holder start time %v is not now", h.Started)
	}

	if err := l.Release(); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "lock")); err != nil {
		t.Errorf("lock file must survive Release: %v", err)
	}
	if _, ok := ReadHolder(dir); ok {
		t.Error("holder still recorded after Release")
	}
	if err := l.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}

	again := mustAcquire(t, dir)
	if err := again.Release(); err != nil {
		t.Fatalf("Release after reacquire: %v", err)
	}
}

func TestSecondAcquireIsBusy(t *testing.T) {
	dir := stateDir(t)
	mustAcquire(t, dir)

	// A second flock on its own file descriptor conflicts even inside one process.
	_, err := Acquire(context.Background(), dir, 0)
	b := busy(t, err)
	if !b.Known || b.Holder.PID != os.Getpid() {
		t.Errorf("busy error = %+v, want the holder's pid %d", b, os.Getpid())
	}
}

func TestBusyWithoutSidecarIsUnknown(t *testing.T) {
	dir := stateDir(t)
	mustAcquire(t, dir)
	if err := os.Remove(filepath.Join(dir, "lock.info")); err != nil {
		t.Fatal(err)
	}

	_, err := Acquire(context.Background(), dir, 0)
	if b := busy(t, err); b.Known {
		t.Errorf("busy error = %+v, want Known=false", b)
	}
	if err.Error() != "a gauntlet run is already in progress" {
		t.Errorf("message = %q", err)
	}
}

func TestWaitingAcquireSucceedsAfterRelease(t *testing.T) {
	dir := stateDir(t)
	first, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan error, 1)
	go func() {
		time.Sleep(200 * time.Millisecond)
		released <- first.Release()
	}()

	second, err := Acquire(context.Background(), dir, 20*time.Second)
	if err != nil {
		t.Fatalf("waiting Acquire: %v", err)
	}
	if err := <-released; err != nil {
		t.Errorf("first Release: %v", err)
	}
	if h, ok := ReadHolder(dir); !ok || h.PID != os.Getpid() {
		t.Errorf("holder after handover = %+v, %v", h, ok)
	}
	if err := second.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
}

func TestWaitThatElapsesIsBusy(t *testing.T) {
	dir := stateDir(t)
	mustAcquire(t, dir)

	_, err := Acquire(context.Background(), dir, 300*time.Millisecond)
	if b := busy(t, err); b.Holder.PID != os.Getpid() {
		t.Errorf("busy error = %+v", b)
	}
}

func TestCancelledWaitIsNotBusy(t *testing.T) {
	dir := stateDir(t)
	mustAcquire(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)

	_, err := Acquire(ctx, dir, 20*time.Second)
	var b *BusyError
	if !errors.Is(err, context.Canceled) || errors.As(err, &b) {
		t.Errorf("error = %v, want context.Canceled and not busy", err)
	}
}

func TestKilledHolderLeavesNoStaleLock(t *testing.T) {
	dir := stateDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holderEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	t.Cleanup(func() {
		if !waited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})

	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		s.Scan()
		line <- s.Text()
	}()
	select {
	case got := <-line:
		if got != "locked" {
			t.Fatalf("holder process said %q", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("holder process did not take the lock within 20s")
	}

	_, err = Acquire(context.Background(), dir, 0)
	if b := busy(t, err); b.Holder.PID != cmd.Process.Pid {
		t.Errorf("busy error names pid %d, want the holder process %d", b.Holder.PID, cmd.Process.Pid)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waited = true

	l, err := Acquire(context.Background(), dir, 0)
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Error(err)
	}
}

func TestSymlinkAtLockPathIsRefused(t *testing.T) {
	tests := []struct {
		name  string
		exist bool
	}{
		{"link to an existing file", true},
		{"dangling link", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := stateDir(t)
			target := filepath.Join(t.TempDir(), "precious")
			if tt.exist {
				if err := os.WriteFile(target, []byte("original"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(target, filepath.Join(dir, "lock")); err != nil {
				t.Fatal(err)
			}

			l, err := Acquire(context.Background(), dir, 0)
			if err == nil {
				_ = l.Release()
				t.Fatal("Acquire followed a symlink at the lock path")
			}
			var b *BusyError
			if errors.As(err, &b) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("error = %v, want a plain error about the symbolic link", err)
			}
			got, rerr := os.ReadFile(target)
			switch {
			case tt.exist && string(got) != "original":
				t.Errorf("target changed to %q", got)
			case !tt.exist && !errors.Is(rerr, os.ErrNotExist):
				t.Errorf("dangling target was created: %v", rerr)
			}
		})
	}
}

func TestSidecarSymlinkIsReplacedNotFollowed(t *testing.T) {
	dir := stateDir(t)
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("original"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "lock.info")); err != nil {
		t.Fatal(err)
	}

	mustAcquire(t, dir)
	if got, _ := os.ReadFile(target); string(got) != "original" {
		t.Errorf("target changed to %q", got)
	}
	if h, ok := ReadHolder(dir); !ok || h.PID != os.Getpid() {
		t.Errorf("holder = %+v, %v", h, ok)
	}
}

func TestAcquireInMissingStateDir(t *testing.T) {
	_, err := Acquire(context.Background(), filepath.Join(t.TempDir(), "missing"), 0)
	var b *BusyError
	if err == nil || errors.As(err, &b) {
		t.Errorf("error = %v, want a plain error", err)
	}
}

// A caller that judged without the lock (the stop hook, when something else held it past its
// wait) has no lock to release: its deferred Release must not crash it.
func TestReleaseOfNoLockIsANoOp(t *testing.T) {
	var none *Lock
	if err := none.Release(); err != nil {
		t.Errorf("Release of a nil lock: %v", err)
	}
}
