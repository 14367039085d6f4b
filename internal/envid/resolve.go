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
	volLen := 0
	if len(path) > 0 && path[0] == '/' {
		volLen = 1
	}
	vol := path[:volLen]
	dest := vol
	linksWalked := 0
	for start, end := volLen, volLen; start < len(path); start = end {
		for start < len(path) && path[start] == '/' {
			start++
		}
		end = start
		for end < len(path) && path[end] != '/' {
			end++
		}
		switch {
		case end == start:
			return filepath.Clean(dest), nil
		case path[start:end] == ".":
			continue
		case path[start:end] == "..":
			dest = up(dest, volLen)
			continue
		}
		if len(dest) > 0 && dest[len(dest)-1] != '/' {
			dest += "/"
		}
		dest += path[start:end]
		mode, err := w.lstat(dest)
		if err != nil {
			return "", err
		}
		if mode&fs.ModeSymlink == 0 {
			if !mode.IsDir() && end < len(path) {
				return "", syscall.ENOTDIR
			}
			continue
		}
		linksWalked++
		if linksWalked > 255 {
			return "", errors.New("EvalSymlinks: too many links")
		}
		link, err := w.readlink(dest)
		if err != nil {
			return "", err
		}
		path = link + path[end:]
		if len(link) > 0 && link[0] == '/' {
			dest, end, vol, volLen = "/", 1, "/", 1
		} else {
			dest, end = parentOf(dest, vol, volLen), 0
		}
	}
	return filepath.Clean(dest), nil
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
