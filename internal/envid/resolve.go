package envid

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// linkWalker resolves symlinks as filepath.EvalSymlinks does, remembering what it looked up: the
// directories of PATH share most of their ancestors (/usr, /usr/local, the home directory), which
// filepath.EvalSymlinks would look up again for every one of them.
type linkWalker struct {
	modes map[string]lookup
	links map[string]lookup
}

type lookup struct {
	mode fs.FileMode
	link string
	err  error
}

func newLinkWalker() *linkWalker {
	return &linkWalker{modes: map[string]lookup{}, links: map[string]lookup{}}
}

func (w *linkWalker) lstat(path string) (fs.FileMode, error) {
	l, ok := w.modes[path]
	if !ok {
		info, err := os.Lstat(path)
		if err == nil {
			l.mode = info.Mode()
		}
		l.err = err
		w.modes[path] = l
	}
	return l.mode, l.err
}

func (w *linkWalker) readlink(path string) (string, error) {
	l, ok := w.links[path]
	if !ok {
		l.link, l.err = os.Readlink(path)
		w.links[path] = l
	}
	return l.link, l.err
}

// eval is filepath.EvalSymlinks (its Unix walk, step for step) with the lookups remembered.
func (w *linkWalker) eval(path string) (string, error) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		return filepath.EvalSymlinks(path)
	}
	s := &walk{path: path}
	if len(path) > 0 && path[0] == '/' {
		s.vol, s.volLen = "/", 1
	}
	s.dest = s.vol
	for start, end := s.volLen, 0; start < len(s.path); start = end {
		for start < len(s.path) && s.path[start] == '/' {
			start++
		}
		end = start
		for end < len(s.path) && s.path[end] != '/' {
			end++
		}
		if end == start {
			break
		}
		var err error
		if end, err = w.step(s, start, end); err != nil {
			return "", err
		}
	}
	return filepath.Clean(s.dest), nil
}

// walk is where eval stands: what is left of the path (links replace what they stand for),
// and the resolved path so far.
type walk struct {
	path, dest, vol string
	volLen, links   int
}

// step takes the element path[start:end] into dest, and returns where the next one starts.
func (w *linkWalker) step(s *walk, start, end int) (int, error) {
	switch s.path[start:end] {
	case ".":
		return end, nil
	case "..":
		s.dest = up(s.dest, s.volLen)
		return end, nil
	}
	if len(s.dest) > 0 && s.dest[len(s.dest)-1] != '/' {
		s.dest += "/"
	}
	s.dest += s.path[start:end]
	mode, err := w.lstat(s.dest)
	if err != nil {
		return 0, err
	}
	if mode&fs.ModeSymlink == 0 {
		if !mode.IsDir() && end < len(s.path) {
			return 0, syscall.ENOTDIR
		}
		return end, nil
	}
	s.links++
	if s.links > 255 {
		return 0, errors.New("EvalSymlinks: too many links")
	}
	link, err := w.readlink(s.dest)
	if err != nil {
		return 0, err
	}
	s.path = link + s.path[end:]
	if len(link) > 0 && link[0] == '/' {
		s.dest, s.vol, s.volLen = "/", "/", 1
		return 1, nil
	}
	s.dest = parentOf(s.dest, s.vol, s.volLen)
	return 0, nil
}

// up is dest with its last element dropped for a "..", or with ".." added when there is none to
// drop (a relative path that climbs above its start).
func up(dest string, volLen int) string {
	r := len(dest) - 1
	for r >= volLen && dest[r] != '/' {
		r--
	}
	if r < volLen || dest[r+1:] == ".." {
		if len(dest) > volLen {
			dest += "/"
		}
		return dest + ".."
	}
	return dest[:r]
}

// parentOf is dest without its last element, where a relative link's target is resolved.
func parentOf(dest, vol string, volLen int) string {
	r := len(dest) - 1
	for r >= volLen && dest[r] != '/' {
		r--
	}
	if r < volLen {
		return vol
	}
	return dest[:r]
}
