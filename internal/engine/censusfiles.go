package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxReports bounds the reports a tests: glob reads: JUnit written one file per class stays far
// below it.
const maxReports = 1000

var errReadTime = errors.New("the time to read the reports ran out")

// snapshotReports notes which of the reports at paths are there before the gate starts.
func (gc *gateCensus) snapshotReports(paths []string) {
	if gc.before == nil {
		gc.before = map[string]stamp{}
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if info, err := os.Stat(p); err == nil {
			gc.before[p] = stamp{info.ModTime(), info.Size()}
		}
	}
}

// testsReports are the files the gate's tests: glob matches, absolute, at most maxReports.
func (gc *gateCensus) testsReports(deadline time.Time) []string {
	return gc.globReports(gc.plan.Tests, deadline)
}

// readReports reads the census in the reports at paths, as one: each opened within the
// project or the run's temp directory, refused unless it was written during the gate's run.
func (gc *gateCensus) readReports(f census.Format, paths []string, deadline time.Time) census.Census {
	if len(paths) == 0 {
		return unread(f, "no report was written")
	}
	var parts []census.Census
	for _, p := range paths {
		parts = append(parts, gc.readReport(f, p, deadline))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return census.Merge(parts...)
}

func (gc *gateCensus) readReport(f census.Format, path string, deadline time.Time) census.Census {
	name := gc.displayPath(path)
	root, rel, err := gc.rootOf(path)
	if err != nil {
		return unread(f, fmt.Sprintf("report %s: %v", name, err))
	}
	defer root.Close()
	file, info, err := safefile.OpenInRoot(root, rel, deadline)
	if errors.Is(err, fs.ErrNotExist) {
		return unread(f, fmt.Sprintf("report %s was not written", name))
	}
	if err != nil {
		return unread(f, fmt.Sprintf("report %s: %v", name, err))
	}
	defer file.Close()
	if was, ok := gc.before[path]; ok && was == (stamp{info.ModTime(), info.Size()}) {
		return unread(f, fmt.Sprintf("report %s was not written during the gate's run", name))
	}
	return census.Read(f, &deadlineReader{r: file, deadline: deadline}, gc.options())
}

// rootOf opens the directory a report is read within: the run's temp directory for one gauntlet
// named, else the project, which a report the gate names must not leave.
func (gc *gateCensus) rootOf(path string) (*os.Root, string, error) {
	for _, base := range []string{gc.stage.temp.dir(), gc.stage.root} {
		if base == "" {
			continue
		}
		if rel, err := filepath.Rel(base, path); err == nil && filepath.IsLocal(rel) {
			root, err := os.OpenRoot(base)
			return root, rel, err
		}
	}
	return nil, "", errors.New("outside the project")
}

// displayPath names a report as reports show it: relative to the project when inside it.
func (gc *gateCensus) displayPath(path string) string {
	if rel, err := filepath.Rel(gc.stage.root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

// deadlineReader ends the reading of a report at the deadline, between reads.
type deadlineReader struct {
	r        io.Reader
	deadline time.Time
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if time.Now().After(d.deadline) {
		return 0, errReadTime
	}
	return d.r.Read(p)
}

// censusStream reads a census from output as it streams: a reader of the census package runs on
// its own goroutine at the other end of a pipe, so that memory stays that of the census.
type censusStream struct {
	w      *io.PipeWriter
	buf    *bufio.Writer
	done   chan struct{}
	c      census.Census
	closed sync.Once
}

func startCensusStream(f census.Format, opts census.Options) *censusStream {
	pr, pw := io.Pipe()
	s := &censusStream{w: pw, buf: bufio.NewWriterSize(pw, 32<<10), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		// Whatever happens to the reader, a writer must never block on the pipe: closing the
		// reading end makes its writes fail at once.
		defer pr.Close()
		defer func() {
			if p := recover(); p != nil {
				s.c = unread(f, fmt.Sprintf("reading the census failed: %v", p))
			}
		}()
		s.c = census.Read(f, pr, opts)
		_, _ = io.Copy(io.Discard, pr)
	}()
	return s
}

// Write passes output on; errors are the reader's, which has ended: the rest is not needed.
func (s *censusStream) Write(p []byte) (int, error) {
	_, _ = s.buf.Write(p)
	return len(p), nil
}

// line passes on a line of the output as the capture delivers it: without its newline.
func (s *censusStream) line(l []byte) {
	_, _ = s.buf.Write(l)
	_ = s.buf.WriteByte('\n')
}

// close ends the output and returns the census read from it; it may be called again.
func (s *censusStream) close() census.Census {
	s.closed.Do(func() {
		_ = s.buf.Flush()
		_ = s.w.Close()
		<-s.done
	})
	return s.c
}
