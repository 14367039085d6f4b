//go:build linux

package causes

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// system is the machine itself: statfs, /proc/meminfo, /proc/vmstat and the cgroup's memory
// files, and real connections.
type system struct{}

func (system) DiskFree(path string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", path, err)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}

func (system) Dial(ctx context.Context, network, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return err
	}
	return c.Close()
}

func (system) Now() time.Time { return time.Now() }

// procFileMax bounds the read of one /proc or cgroup file.
const procFileMax = 64 << 10

func readProc(path string) ([]byte, error) {
	return safefile.ReadFile(path, procFileMax, time.Now().Add(time.Second))
}

func (system) Memory() (MemoryState, error) {
	info, err := readProc("/proc/meminfo")
	if err != nil {
		return MemoryState{}, err
	}
	var m MemoryState
	fields := keyValues(info, ":")
	avail, okA := fields["MemAvailable"]
	total, okT := fields["MemTotal"]
	if !okA || !okT {
		return MemoryState{}, errors.New("/proc/meminfo has no MemAvailable")
	}
	m.Available, m.Total = avail*1024, total*1024 // kB
	if vm, err := readProc("/proc/vmstat"); err == nil {
		m.OOMKills += keyValues(vm, " ")["oom_kill"]
	}
	if dir := cgroupDir(); dir != "" {
		if ev, err := readProc(filepath.Join(dir, "memory.events")); err == nil {
			m.OOMKills += keyValues(ev, " ")["oom_kill"]
		}
		limit, errL := readProc(filepath.Join(dir, "memory.max"))
		used, errU := readProc(filepath.Join(dir, "memory.current"))
		if errL == nil && errU == nil {
			l, errL := strconv.ParseUint(strings.TrimSpace(string(limit)), 10, 64) // "max": no limit
			u, errU := strconv.ParseUint(strings.TrimSpace(string(used)), 10, 64)
			if errL == nil && errU == nil && l > 0 {
				m.Total = min(m.Total, l)
				m.Available = min(m.Available, l-min(u, l))
			}
		}
	}
	return m, nil
}

// cgroupDir is this process's cgroup v2 directory; "" when there is none to read.
func cgroupDir() string {
	data, err := readProc("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			dir := filepath.Join("/sys/fs/cgroup", filepath.FromSlash(rest))
			if !strings.HasPrefix(dir, "/sys/fs/cgroup") {
				return ""
			}
			return dir
		}
	}
	return ""
}

// keyValues reads "key<sep> value [unit]" lines into numbers.
func keyValues(data []byte, sep string) map[string]uint64 {
	out := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), sep)
		if !ok {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			continue
		}
		if n, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			out[strings.TrimSpace(k)] = n
		}
	}
	return out
}
