//go:build linux

package lock

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxLocksBytes bounds the read of /proc/locks: a busy machine has a few thousand lines.
const maxLocksBytes = 4 << 20

// foreignHolder describes the process holding the run lock (the lock file's or the project
// directory's) when the kernel names it and it is not a gauntlet: something other than a run
// holds it (`flock .gauntlet/lock sleep 1d` started by the gated agent), and saying "a gauntlet
// run is in progress" would be false. "" when any holder is gauntlet, or none can be named.
func foreignHolder(stateDir string) string {
	selfInfo, ok := selfExecutable()
	if !ok {
		return ""
	}
	ids := lockFileIDs(stateDir)
	f, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer f.Close()
	var foreign []string
	sc := bufio.NewScanner(io.LimitReader(f, maxLocksBytes))
	for sc.Scan() {
		pid, holds := flockHolder(sc.Text(), ids)
		if !holds {
			continue
		}
		if !isForeignProcess(pid, selfInfo) {
			return ""
		}
		foreign = append(foreign, describe(pid))
	}
	return strings.Join(foreign, ", ")
}

// selfExecutable is this program's file, which a holder is compared with.
func selfExecutable() (os.FileInfo, bool) {
	self, err := os.Executable()
	if err != nil {
		return nil, false
	}
	info, err := os.Stat(self)
	return info, err == nil
}

// lockFileIDs are the lock file's and the project directory's device and inode as /proc/locks
// writes them ("fe:00:9986361").
func lockFileIDs(stateDir string) map[string]bool {
	ids := map[string]bool{}
	for _, p := range []string{filepath.Join(stateDir, fileName), filepath.Dir(stateDir)} {
		var st syscall.Stat_t
		if syscall.Stat(p, &st) == nil {
			dev := uint64(st.Dev) //nolint:unconvert // Dev's type differs between architectures
			ids[fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), st.Ino)] = true
		}
	}
	return ids
}

// flockHolder reads a line of /proc/locks: holds is whether it is a flock on one of ids, and pid
// its holder (0 when it is in another pid namespace, and cannot be named).
func flockHolder(line string, ids map[string]bool) (pid int, holds bool) {
	// "1: FLOCK  ADVISORY  WRITE 30152 fe:00:9986361 0 EOF"; a waiter's line has "->".
	fields := strings.Fields(line)
	if len(fields) < 6 || fields[1] != "FLOCK" || !ids[fields[5]] {
		return 0, false
	}
	pid, err := strconv.Atoi(fields[4])
	if err != nil {
		return 0, true
	}
	return pid, true
}

// isForeignProcess reports whether pid is a process that can be looked at and is no gauntlet:
// neither this program nor another gauntlet build (a second install, go run), which is a run too.
// Only the message is at stake, and it must not call a real run foreign.
func isForeignProcess(pid int, selfInfo os.FileInfo) bool {
	if pid <= 0 {
		return false
	}
	exe, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil || os.SameFile(exe, selfInfo) {
		return false
	}
	target, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return err != nil || !strings.HasPrefix(filepath.Base(target), "gauntlet")
}

// describe names pid by its command line, shortened.
func describe(pid int) string {
	var data []byte
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err == nil {
		data, err = io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
	}
	cmd := strings.TrimSpace(string(bytes.ReplaceAll(bytes.TrimRight(data, "\x00"), []byte{0}, []byte{' '})))
	if err != nil || cmd == "" {
		return "pid " + strconv.Itoa(pid)
	}
	if len(cmd) > 80 {
		cmd = cmd[:77] + "..."
	}
	return fmt.Sprintf("pid %d (%s)", pid, strings.ToValidUTF8(cmd, "?"))
}

// kernelHolds says whether the run lock (the lock file's or the project directory's flock) is
// held, from /proc/locks, which lists every lock without taking any; known is false when it
// cannot be read.
func kernelHolds(stateDir string) (held, known bool) {
	ids := lockFileIDs(stateDir)
	if len(ids) == 0 {
		return false, true // no lock file, no project directory: nothing can hold them
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return false, false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxLocksBytes))
	for sc.Scan() {
		if _, holds := flockHolder(sc.Text(), ids); holds {
			return true, true
		}
	}
	return false, sc.Err() == nil
}
