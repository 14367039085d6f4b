//go:build !windows

package covshim

import (
	"os"
	"syscall"
)

// replaceProcess execs the tool in the shim's place: the same process, its exit status go's to
// read. It returns only on failure.
func replaceProcess(tool []string) error {
	return syscall.Exec(tool[0], tool, os.Environ())
}
