package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// binarySniffBytes is how much of a file git looks at to decide that it is binary.
const binarySniffBytes = 8000

// errTooBig means a file's section cannot fit in the room left.
var errTooBig = errors.New("file does not fit")

// addUntracked appends untracked, not ignored files as new-file sections, reading each only
// when it is to be shown and fits; once the patch is full it only notes the files kept out.
func addUntracked(dir string, names []string, w *patchWriter) error {
	if len(names) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("open project root: %w", err)
	}
	defer root.Close()
	for _, name := range names {
		switch {
		case w.skip != nil && w.skip(name):
			// Listed even once the patch is full: the reader is told what was kept out.
			w.leftOut = append(w.leftOut, name)
		case !w.cut:
			w.addNewFile(root, name)
		}
	}
	return nil
}

// addNewFile appends one untracked file's section when it fits; when it does not, the patch is
// cut there.
func (w *patchWriter) addNewFile(root *os.Root, name string) {
	section, err := newFileSection(root, name, w.room())
	switch {
	case errors.Is(err, errTooBig):
		w.cut = true
	case err != nil:
		// Gone or unreadable since it was listed: the agent may be editing; show the rest.
	default:
		w.consume(bytes.NewReader(section))
	}
}

// newFileSection renders an untracked file as git would show it once added: a regular file's
// lines, a symlink's target, nothing for anything else (a nested repository, a socket).
func newFileSection(root *os.Root, name string, room int64) ([]byte, error) {
	mode, content, err := newFileContent(root, name, room)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "diff --git %s %s\nnew file mode %s\n", quotePath("a/"+name), quotePath("b/"+name), mode)
	writeNewFileBody(&b, quotePath("b/"+name), content)
	if int64(b.Len()) > room {
		return nil, errTooBig
	}
	return b.Bytes(), nil
}

// newFileContent is the git mode and content of an untracked file: a symlink's target or a
// regular file's bytes; anything else is fs.ErrInvalid.
func newFileContent(root *os.Root, name string, room int64) (mode string, content []byte, err error) {
	info, err := root.Lstat(name)
	if err != nil {
		return "", nil, err
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := root.Readlink(name)
		if err != nil {
			return "", nil, err
		}
		return "120000", []byte(target), nil
	case info.Mode().IsRegular():
		if info.Size() > room {
			return "", nil, errTooBig
		}
		mode = "100644"
		if info.Mode().Perm()&0o111 != 0 {
			mode = "100755"
		}
		if content, err = readAtMost(root, name, room); err != nil {
			return "", nil, err
		}
		return mode, content, nil
	default:
		return "", nil, fs.ErrInvalid
	}
}

// writeNewFileBody writes what follows a new file's header: nothing for an empty file, a note
// for a binary one, else one hunk adding every line.
func writeNewFileBody(b *bytes.Buffer, newName string, content []byte) {
	switch {
	case len(content) == 0:
	case bytes.IndexByte(content[:min(len(content), binarySniffBytes)], 0) >= 0:
		fmt.Fprintf(b, "Binary files /dev/null and %s differ\n", newName)
	default:
		lines := bytes.SplitAfter(content, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		fmt.Fprintf(b, "--- /dev/null\n+++ %s\n@@ -0,0 +%s @@\n", newName, hunkRange(len(lines)))
		for _, l := range lines {
			b.WriteByte('+')
			b.Write(l)
		}
		if content[len(content)-1] != '\n' {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// readAtMost reads a file, failing with errTooBig when it has grown past limit since its Lstat.
func readAtMost(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(content)) > limit {
		return nil, errTooBig
	}
	return content, nil
}

// hunkRange is the "+start,count" part of a new file's hunk header.
func hunkRange(lines int) string {
	if lines == 1 {
		return "1"
	}
	return "1," + strconv.Itoa(lines)
}
