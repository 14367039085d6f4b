// Package boundedfile reads files whose size and kind gauntlet does not control (reports and
// timings restored from a CI cache or artifact) without letting them hang or exhaust it.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrTooLarge is returned when a file holds more than the limit.
var ErrTooLarge = errors.New("file too large")

// Read reads a regular file of at most limit bytes. The open does not block (a FIFO planted
// where a report is expected would otherwise wait forever for a writer) and anything but a
// regular file is refused before a byte is read.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, limit)
	}
	return data, nil
}
