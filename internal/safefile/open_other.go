//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// flags: Windows has no FIFOs to block an open and no controlling terminal to adopt; a device
// name (NUL, CON) opens, and is then refused as not a regular file.
const flags = os.O_RDONLY

// Owner reports false: Windows files have an owner SID in their security descriptor, not a uid,
// and a config owned by another account is not refused there (docs/windows.md).
func Owner(fs.FileInfo) (uint32, bool) { return 0, false }
