//go:build !unix

package toolid

import "io/fs"

// sysID has nothing to add where the system has no inode and change time to read.
func sysID(string, fs.FileInfo) string { return "" }
