//go:build windows

package stophook

import "os"

// terminate ends a judge. Windows has no SIGTERM for another process: the judge is killed, and
// its gates, in its Job Object, with it.
func terminate(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
