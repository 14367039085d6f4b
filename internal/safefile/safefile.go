// Package safefile opens the files gauntlet reads for itself (config, local override, prompt
// file, transcript, ledger) so that no read can hang it: a FIFO or a device planted at the path
// is refused without blocking, and a "regular" file whose read blocks (/proc/kmsg) gives up at
// the deadline in force.
package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"time"
)

// ErrTooLarge is returned by ReadAll when the file holds more than the limit.
var ErrTooLarge = errors.New("file too large")

// NotRegularError is a path that exists but is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s); refusing to read it", e.Path, describe(e.Mode))
}

func describe(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "mode " + t.String()
	}
}

// Open opens path for reading and refuses anything but a regular file (a symlink to one is
// followed). Reads on the returned file end at deadline when the file supports it; ReadAll
// checks the deadline between reads as well. The zero deadline means none.
func Open(path string, deadline time.Time) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	return checked(f, path, deadline)
}

// OpenInRoot is Open for a name inside root, which the name cannot leave.
func OpenInRoot(root *os.Root, name string, deadline time.Time) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	return checked(f, name, deadline)
}

func checked(f *os.File, path string, deadline time.Time) (*os.File, fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	if !deadline.IsZero() {
		// Regular files on disk do not support deadlines (and never block for long); pollable
		// pseudo-files such as /proc/kmsg do, and are exactly the ones that can block forever.
		_ = f.SetReadDeadline(deadline)
	}
	return f, info, nil
}

// ReadAll reads r to its end, at most limit bytes, before deadline (zero: none). More than limit
// bytes gives ErrTooLarge without reading further.
func ReadAll(r io.Reader, limit int64, deadline time.Time) ([]byte, error) {
	return readAll(r, limit, deadline, 0)
}

// ReadAllSized is ReadAll into a buffer made for size bytes, the file's size from its stat: a
// small file is read in one call, rather than one byte first and then into a buffer of tens of
// KiB cleared for it. A file that grew since is read whole all the same, up to limit.
func ReadAllSized(r io.Reader, limit int64, deadline time.Time, size int64) ([]byte, error) {
	return readAll(r, limit, deadline, size)
}

// readAll is ReadAll into a buffer made for size bytes (the file's size when known), read into
// directly: a large file (a repository's index) is then neither copied again at every growth of
// the buffer nor through a second one. The buffer never holds more than limit+1 bytes.
func readAll(r io.Reader, limit int64, deadline time.Time, size int64) ([]byte, error) {
	const chunk = 1 << 20 // a read's most, so that the deadline is looked at between reads
	if size < 0 || size > limit {
		size = limit
	}
	out := make([]byte, 0, size+1)
	for {
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, os.ErrDeadlineExceeded
		}
		if len(out) == cap(out) {
			out = slices.Grow(out, int(min(max(int64(len(out)), 32<<10), limit+1-int64(len(out)))))
		}
		end := min(cap(out), len(out)+chunk)
		n, err := r.Read(out[len(out):end])
		out = out[:len(out)+n]
		if int64(len(out)) > limit {
			return nil, fmt.Errorf("%w (more than %d bytes)", ErrTooLarge, limit)
		}
		switch {
		case errors.Is(err, io.EOF):
			return out, nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, fmt.Errorf("read did not finish in time: %w", err)
		case err != nil:
			return nil, err
		}
	}
}

// ReadFile is Open then ReadAll.
func ReadFile(path string, max int64, deadline time.Time) ([]byte, error) {
	f, info, err := Open(path, deadline)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(f, max, deadline, info.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// Bind makes a pending or later read on f return at once when ctx ends (a signal, a deadline), on
// files that support deadlines. Call the returned func when done reading.
func Bind(ctx context.Context, f *os.File) (stop func()) {
	if deadline, ok := ctx.Deadline(); ok {
		_ = f.SetReadDeadline(deadline)
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-ctx.Done():
			_ = f.SetReadDeadline(time.Unix(1, 0))
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
