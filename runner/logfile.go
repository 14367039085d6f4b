package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// cappedLog writes a gate's output to a log file of bounded size. Up to the limit it is a plain
// file; beyond it the first half stays and the second half of the file becomes a ring holding
// the latest bytes, which Close puts back in order behind a marker line. Memory use is constant.
type cappedLog struct {
	root    *os.Root
	name    string
	f       *os.File
	limit   int64 // bytes of output kept
	head    int64 // bytes kept from the start; the rest of limit is the ring
	written int64 // bytes of output received
}

// createCappedLog creates name inside root, replacing any earlier file; limit must be positive.
func createCappedLog(root *os.Root, name string, limit int64) (*cappedLog, error) {
	f, err := root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating log file: %w", err)
	}
	return &cappedLog{root: root, name: name, f: f, limit: limit, head: limit / 2}, nil
}

func (l *cappedLog) Write(p []byte) (int, error) {
	n := len(p)
	if l.written < l.limit {
		k := min(int64(len(p)), l.limit-l.written)
		if _, err := l.f.Write(p[:k]); err != nil {
			return 0, fmt.Errorf("writing log file %s: %w", l.name, err)
		}
		l.written += k
		p = p[k:]
	}
	ringSize := l.limit - l.head
	if int64(len(p)) > ringSize {
		// Only the last ringSize bytes can survive.
		skip := int64(len(p)) - ringSize
		l.written += skip
		p = p[skip:]
	}
	for len(p) > 0 {
		off := (l.written - l.head) % ringSize
		k := min(int64(len(p)), ringSize-off)
		if _, err := l.f.WriteAt(p[:k], l.head+off); err != nil {
			return 0, fmt.Errorf("writing log file %s: %w", l.name, err)
		}
		l.written += k
		p = p[k:]
	}
	return n, nil
}

// Close finishes the file: when output was dropped, the file is rewritten as head, marker and
// ring in order, through a temporary file inside the root so that a reader never sees a mix.
func (l *cappedLog) Close() error {
	var err error
	if l.written > l.limit {
		err = l.unwindRing()
	}
	if closeErr := l.f.Close(); closeErr != nil && err == nil {
		err = fmt.Errorf("closing log file %s: %w", l.name, closeErr)
	}
	return err
}

func (l *cappedLog) unwindRing() (err error) {
	tmp := l.name + ".tmp"
	if err := l.root.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing stale %s: %w", tmp, err)
	}
	out, err := l.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("creating %s: %w", tmp, err)
	}
	defer func() {
		if err != nil {
			out.Close()
			l.root.Remove(tmp)
		}
	}()

	oldest := l.head + (l.written-l.head)%(l.limit-l.head)
	buf := make([]byte, 32<<10)
	marker := fmt.Sprintf("\n[gauntlet: %d bytes omitted]\n", l.written-l.limit)
	steps := []func() error{
		func() error { return l.copyRange(out, 0, l.head, buf) },
		func() error { _, err := io.WriteString(out, marker); return err },
		func() error { return l.copyRange(out, oldest, l.limit, buf) },
		func() error { return l.copyRange(out, l.head, oldest, buf) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("rewriting log file %s: %w", l.name, err)
		}
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmp, err)
	}
	if err := l.root.Rename(tmp, l.name); err != nil {
		return fmt.Errorf("replacing log file %s: %w", l.name, err)
	}
	return nil
}

// copyRange copies bytes [from, to) of the log file to out through buf.
func (l *cappedLog) copyRange(out io.Writer, from, to int64, buf []byte) error {
	// Hiding out's ReadFrom keeps the copy on buf instead of a buffer of the library's own.
	_, err := io.CopyBuffer(struct{ io.Writer }{out}, io.NewSectionReader(l.f, from, to-from), buf)
	return err
}
