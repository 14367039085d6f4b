package snapshot

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// patchWriter builds a capped patch one file section at a time, dropping the sections of files
// that must not be shown. It only ever keeps whole lines.
type patchWriter struct {
	max      int64 // below 1: no cap
	skip     func(path string) bool
	text     []byte
	cut      bool
	leftOut  []string
	dropping bool // the current file section is kept out
	// section is where the current file section starts in text, path its file: a section found
	// to hold a NUL byte is put back to its header and a "Binary files" line.
	section int
	path    string
	// shown are the files whose header made it into text.
	shown map[string]bool
}

func newPatchWriter(max int64, skip func(string) bool) *patchWriter {
	return &patchWriter{max: max, skip: skip}
}

// room is how many more bytes fit.
func (w *patchWriter) room() int64 {
	if w.max < 1 {
		return 1 << 62
	}
	return w.max - int64(len(w.text))
}

// consume reads patch text. Lines longer than the reader's buffer arrive in pieces; only the
// first piece of a line can be a section header. It returns git.ErrEnough once the cap is reached.
func (w *patchWriter) consume(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	atLineStart := true
	lineStart := len(w.text)
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if atLineStart {
				lineStart = len(w.text)
				w.startLine(chunk)
			}
			if !w.dropping && bytes.IndexByte(chunk, 0) >= 0 {
				w.binarySection()
			}
			if !w.dropping {
				if int64(len(chunk)) > w.room() {
					w.text = w.text[:lineStart] // never half a line
					w.cut = true
					delete(w.shown, w.path) // its section is not whole
					return git.ErrEnough
				}
				w.text = append(w.text, chunk...)
				if atLineStart && len(w.text) > lineStart && w.path != "" && lineStart == w.section {
					w.markShown(w.path)
				}
			}
			atLineStart = chunk[len(chunk)-1] == '\n'
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return nil
		default:
			return err
		}
	}
}

// startLine decides, at each file header, whether the section that follows is shown.
func (w *patchWriter) startLine(line []byte) {
	if !bytes.HasPrefix(line, []byte("diff --git ")) {
		return
	}
	path, ok := headerPath(string(line))
	switch {
	case !ok:
		// A header this code cannot read could name anything: better not shown than leaked.
		w.dropping = true
		w.leftOut = append(w.leftOut, "(unreadable file name)")
	case w.skip != nil && w.skip(path):
		w.dropping = true
		w.leftOut = append(w.leftOut, path)
	default:
		w.dropping = false
		w.section, w.path = len(w.text), path
	}
}

func (w *patchWriter) markShown(path string) {
	if w.shown == nil {
		w.shown = map[string]bool{}
	}
	w.shown[path] = true
}

// binarySection replaces the current section, which holds a NUL byte, by its header and git's own
// note. The diff is asked for with --text so that no attribute of the repository's (`-diff`,
// `binary`) can hide a text file's lines; a file that really is binary (by git's own test, a NUL
// byte) still reaches the reader as a note rather than as raw bytes.
func (w *patchWriter) binarySection() {
	header, _, _ := bytes.Cut(w.text[w.section:], []byte("\n"))
	w.text = append(w.text[:w.section], header...)
	w.text = append(w.text, "\nBinary files "+quotePath("a/"+w.path)+" and "+quotePath("b/"+w.path)+" differ\n"...)
	w.dropping = true
}
