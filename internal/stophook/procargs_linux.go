//go:build linux

package stophook

import (
	"bytes"
	"strconv"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxCmdline bounds the read of a process's command line: a judge's is a few hundred bytes.
const maxCmdline = 64 << 10

// processArgs is pid's command line, from /proc.
func processArgs(pid int) ([]string, bool) {
	data, err := safefile.ReadFile("/proc/"+strconv.Itoa(pid)+"/cmdline", maxCmdline, time.Now().Add(time.Second))
	if err != nil || len(data) == 0 {
		return nil, false
	}
	var args []string
	for _, a := range bytes.Split(bytes.TrimSuffix(data, []byte{0}), []byte{0}) {
		args = append(args, string(a))
	}
	return args, true
}
