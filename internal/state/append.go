package state

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// AppendFile adds data at the end of the file at name (relative to the state directory),
// creating it and its folder when missing, and returns the file's size after the write. One call
// is one write(2) on an O_APPEND descriptor, so that concurrent appenders of small records never
// interleave within a record.
func (d *Dir) AppendFile(name string, data []byte) (int64, error) {
	rel, err := d.localName(name)
	if err != nil {
		return 0, err
	}
	target := d.display(rel)
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return 0, opErr(target, "mkdir", err)
		}
	}
	// O_NONBLOCK: a FIFO planted at the name fails to open instead of hanging the caller.
	f, err := d.root.OpenFile(rel, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return 0, opErr(target, "open", err)
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		_ = f.Close()
		return 0, fmt.Errorf("%s: not a regular file", target)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return 0, opErr(target, "append", err)
	}
	info, statErr := f.Stat()
	if err := f.Close(); err != nil {
		return 0, opErr(target, "close", err)
	}
	if statErr != nil {
		return 0, opErr(target, "stat", statErr)
	}
	return info.Size(), nil
}

// ReadFileTail reads at most the last max bytes of a regular file relative to the state
// directory, and its whole size. A missing file satisfies errors.Is(err, fs.ErrNotExist).
func (d *Dir) ReadFileTail(name string, max int64) (data []byte, size int64, err error) {
	rel, err := d.localName(name)
	if err != nil {
		return nil, 0, err
	}
	target := d.display(rel)
	f, err := d.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, opErr(target, "open", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, opErr(target, "stat", err)
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s: not a regular file", target)
	}
	size = info.Size()
	if size > max {
		if _, err := f.Seek(size-max, io.SeekStart); err != nil {
			return nil, 0, opErr(target, "seek", err)
		}
	}
	// Sized from the stat, so the tail is read in one call rather than in growing pieces; what
	// was appended since is read too, up to max.
	buf := bytes.NewBuffer(make([]byte, 0, min(size, max)+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, max)); err != nil {
		return nil, 0, opErr(target, "read", err)
	}
	return buf.Bytes(), size, nil
}
