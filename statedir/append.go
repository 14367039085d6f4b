package statedir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// AppendFile adds data at the end of the file at name (relative to the state directory),
// creating it and its folder when missing. One call is one write(2) on an O_APPEND descriptor,
// so that concurrent appenders of small records never interleave within a record.
func (d *Dir) AppendFile(name string, data []byte) error {
	rel, err := d.localName(name)
	if err != nil {
		return err
	}
	target := d.display(rel)
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return opErr(target, "mkdir", err)
		}
	}
	f, err := d.root.OpenFile(rel, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return opErr(target, "open", err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return opErr(target, "append", err)
	}
	if err := f.Close(); err != nil {
		return opErr(target, "close", err)
	}
	return nil
}

// ReadFileTail reads at most the last max bytes of a regular file relative to the state
// directory, and its whole size. A missing file satisfies errors.Is(err, fs.ErrNotExist).
func (d *Dir) ReadFileTail(name string, max int64) (data []byte, size int64, err error) {
	rel, err := d.localName(name)
	if err != nil {
		return nil, 0, err
	}
	target := d.display(rel)
	f, err := d.root.Open(rel)
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
	data, err = io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, 0, opErr(target, "read", err)
	}
	return data, size, nil
}
