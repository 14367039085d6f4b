//go:build linux

package proc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var enabled atomic.Bool

// Enable makes this process the subreaper of its descendants. It reports whether orphans will be
// reparented here.
func Enable() bool {
	if enabled.Load() {
		return true
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return false
	}
	enabled.Store(true)
	return true
}

// Enabled reports whether Enable succeeded.
func Enabled() bool { return enabled.Load() }

// KillOrphans kills the processes this process adopted whose environment holds every one of
// marks ("KEY=VALUE"), and reaps them. The caller has waited for the gate's process group to be
// gone, so every escaped descendant has been reparented here by then; killing an orphan hands
// its own children over in turn, so it goes on until a round finds none, or within is up. Only
// this process's own children are looked at (see children), whatever their pids: after the pids
// wrap around, an escaped daemon may have a lower pid than its gate. A process is only killed
// after its environment was read and matched, and never one this process started itself (Own),
// so neither another gate nor gauntlet's own git is touched. after (the gate's first pid) is
// only used where the kernel does not list children. It returns how many it killed.
func KillOrphans(marks []string, after int, within time.Duration) int {
	if !Enabled() || len(marks) == 0 {
		return 0
	}
	killed := 0
	deadline := time.Now().Add(min(settle, within))
	for time.Now().Before(deadline) {
		var round []int
		for _, pid := range children(after) {
			if owned(pid) {
				continue
			}
			if environMarked(pid, marks) && syscall.Kill(pid, syscall.SIGKILL) == nil {
				round = append(round, pid)
			}
		}
		if len(round) == 0 {
			break
		}
		killed += len(round)
		for _, pid := range round {
			reap(pid, deadline)
		}
	}
	return killed
}

// children lists this process's child processes: those it started and those it adopted as the
// subreaper, zombies included, from /proc/self/task/*/children (an orphan is handed to one of
// the threads). It reads a few small files, where a walk of /proc reads one per process of the
// machine. On a kernel without those files it falls back to that walk, for pids above after
// whose parent is this process.
func children(after int) []int {
	if pids, ok := taskChildren(); ok {
		return pids
	}
	self := os.Getpid()
	var out []int
	for _, pid := range pids(after) {
		if parentOf(pid) == self {
			out = append(out, pid)
		}
	}
	return out
}

// maxChildrenList bounds what is read of one thread's list of children.
const maxChildrenList = 1 << 20

// childrenFiles is false once the kernel showed it has no children files.
var childrenFiles atomic.Bool

func init() { childrenFiles.Store(true) }

func taskChildren() ([]int, bool) {
	if !childrenFiles.Load() {
		return nil, false
	}
	// Raw system calls on a descriptor of the task folder: this runs at every gate's end, once
	// per thread, and an os.File per read (with its poller registration and finalizer) and a
	// lookup of the whole path each time cost as much as starting the gate.
	dir, err := unix.Open("/proc/self/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(dir)
	tids, ok := dirNames(dir)
	if !ok {
		return nil, false
	}
	buf := childrenBufs.Get().(*[]byte)
	defer childrenBufs.Put(buf)
	var out []int
	for _, tid := range tids {
		list, err := readAt(dir, tid+"/children", buf)
		if errors.Is(err, unix.ENOENT) {
			var st unix.Stat_t
			if unix.Fstatat(dir, tid, &st, 0) == nil {
				childrenFiles.Store(false) // the thread is there, its children file is not
				return nil, false
			}
			continue // the thread is gone; its children went to another one
		}
		if err == nil {
			out = appendPids(out, list)
		}
	}
	return out, true
}

// appendPids appends the pids of a children list ("12 34 ") to out.
func appendPids(out []int, list []byte) []int {
	for field := range bytes.FieldsSeq(list) {
		if pid, err := strconv.Atoi(string(field)); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// childrenBufs keeps the buffers the children lists are read into; one grows (up to
// maxChildrenList) only for a thread with thousands of children.
var childrenBufs = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

// dirNames lists the names in the open folder dir.
func dirNames(dir int) ([]string, bool) {
	var names []string
	buf := make([]byte, 4096)
	for {
		n, err := unix.Getdents(dir, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			return names, true
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}

// readAt reads the file name under the open folder dir whole, into *buf (grown as needed, up to
// maxChildrenList), so that no pid is cut between two reads: some 8 bytes a child.
func readAt(dir int, name string, buf *[]byte) ([]byte, error) {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	b := (*buf)[:0]
	for len(b) < maxChildrenList {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		k, err := unix.Read(fd, b[len(b):min(cap(b), maxChildrenList)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || k <= 0 {
			break
		}
		b = b[:len(b)+k]
	}
	*buf = b
	return b, nil
}

var (
	ownMu sync.Mutex
	own   = map[int]bool{}
	// starting is held (shared) while a child is started and recorded as owned, and exclusively
	// by ReapStrays: a child that exits at once must never be reaped as a stray before its own
	// code has recorded it, or that code's Wait would find no child.
	starting sync.RWMutex
)

// Start starts cmd and records its process as this process's own (see Own). Every child
// gauntlet starts while gates run goes through here. release is to be called once cmd was
// waited for.
func Start(cmd *exec.Cmd) (release func(), err error) {
	starting.RLock()
	defer starting.RUnlock()
	if err := cmd.Start(); err != nil {
		return func() {}, err
	}
	return Own(cmd.Process.Pid), nil
}

// ReapStrays collects the exit status of this process's zombie children that it did not start
// itself: orphans of a gate, reparented here, that exited while the gate still runs. Without it
// they would stay zombies until the gate ends, and a gate that orphans many short processes could
// run a container out of pids. It returns how many it reaped.
func ReapStrays() int {
	if !Enabled() {
		return 0
	}
	starting.Lock()
	defer starting.Unlock()
	n := 0
	for _, pid := range children(0) {
		if owned(pid) || !zombie(pid) {
			continue
		}
		var ws unix.WaitStatus
		if got, _ := unix.Wait4(pid, &ws, unix.WNOHANG, nil); got == pid {
			n++
		}
	}
	return n
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	state, _, ok := statOf(pid)
	return ok && state == "Z"
}

// Own records a process this process started (a gate's leader): it is waited for by its own
// code and is never an orphan. Call the returned func once it has been waited for.
func Own(pid int) (release func()) {
	ownMu.Lock()
	own[pid] = true
	ownMu.Unlock()
	return func() {
		ownMu.Lock()
		delete(own, pid)
		ownMu.Unlock()
	}
}

func owned(pid int) bool {
	ownMu.Lock()
	defer ownMu.Unlock()
	return own[pid]
}

// KillMarked kills every process, wherever it is in the process tree, whose environment holds
// mark: what a run killed with SIGKILL left running. It returns how many it killed.
func KillMarked(mark string) int {
	self := os.Getpid()
	killed := map[int]bool{}
	env := make([]byte, maxEnviron)
	deadline := time.Now().Add(settle)
	for time.Now().Before(deadline) {
		n := 0
		for _, pid := range pids(0) {
			// A process already killed may linger a moment before it is gone; it is counted once.
			if pid == self || killed[pid] || !environHas(pid, []string{mark}, env) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed[pid] = true
				n++
			}
		}
		if n == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond) // let the killed go before looking for their children
	}
	return len(killed)
}

// pids lists the processes above after.
func pids(after int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []int
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil && pid > after {
			out = append(out, pid)
		}
	}
	return out
}

// statOf reads a process's state and parent pid from /proc/PID/stat; the command name may hold
// spaces and parentheses, so the fields are counted from the last ')'.
func statOf(pid int) (state string, ppid int, ok bool) {
	var buf [512]byte
	b := readProc(pid, "stat", buf[:])
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", 0, false
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 2 {
		return "", 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	if err != nil {
		return "", 0, false
	}
	return string(fields[0]), ppid, true
}

// parentOf is the parent pid of a live process; -1 for a zombie, which has no environment to
// tell whose it is, and for a process that is gone.
func parentOf(pid int) int {
	state, ppid, ok := statOf(pid)
	if !ok || state == "Z" {
		return -1
	}
	return ppid
}

// maxEnviron bounds what is read of one process's environment.
const maxEnviron = 1 << 20

// smallEnviron is what is read of an environment first: most fit. The megabyte of maxEnviron is
// only allocated for one that does not; allocated at a gate's end, it cost a short run a garbage
// collection.
const smallEnviron = 16 << 10

// environBufs and smallEnvironBufs keep the buffers environments are read into: a gate's end
// that finds a stray child must not allocate each time.
var (
	environBufs      = sync.Pool{New: func() any { b := make([]byte, maxEnviron); return &b }}
	smallEnvironBufs = sync.Pool{New: func() any { b := make([]byte, smallEnviron); return &b }}
)

// environMarked is environHas with a buffer of maxEnviron, read into a small one first: an
// environment that fills the small one is read again whole.
func environMarked(pid int, marks []string) bool {
	small := smallEnvironBufs.Get().(*[]byte)
	has, whole := environHolds(pid, marks, *small)
	smallEnvironBufs.Put(small)
	if has || whole {
		return has
	}
	large := environBufs.Get().(*[]byte)
	defer environBufs.Put(large)
	return environHas(pid, marks, *large)
}

// environHas reads pid's environment into buf (reused between calls, so that looking at many
// processes costs no memory) and reports whether it holds every mark as a whole entry.
func environHas(pid int, marks []string, buf []byte) bool {
	has, _ := environHolds(pid, marks, buf)
	return has
}

// environHolds is environHas, and whether the environment was read whole: false when it filled
// buf, so that a mark may lie beyond what was read.
func environHolds(pid int, marks []string, buf []byte) (has, whole bool) {
	buf[0] = 0 // so that the first entry, too, is preceded by a NUL
	env := readProc(pid, "environ", buf[1:len(buf)-1])
	whole = len(env) < len(buf)-2
	if len(env) == 0 {
		return false, whole
	}
	env = buf[:len(env)+1]
	if env[len(env)-1] != 0 {
		env = append(env, 0) // cut at the buffer's end: the room left for it was kept
	}
	for _, m := range marks {
		if !bytes.Contains(env, []byte("\x00"+m+"\x00")) {
			return false, whole
		}
	}
	return true, whole
}

func readProc(pid int, name string, buf []byte) []byte {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/" + name)
	if err != nil {
		return nil
	}
	defer f.Close()
	n := 0
	for n < len(buf) {
		k, err := f.Read(buf[n:])
		n += k
		if err != nil || k == 0 {
			break
		}
	}
	return buf[:n]
}

// reap collects a killed orphan's exit status, so that no zombie of it stays behind.
func reap(pid int, deadline time.Time) {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if got == pid || errors.Is(err, unix.ECHILD) || (err != nil && !errors.Is(err, unix.EINTR)) {
			return
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
