package snapshot

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// IndexEntry is one file of the index: its root-relative path, mode and object id.
type IndexEntry struct {
	Path string
	Mode string
	OID  string
	// Hidden is set for a file git is told not to look at in the work tree (skip-worktree,
	// assume-unchanged): git status never reports its edits, so its content must be read.
	Hidden bool
}

// Index lists the files of the index under the root (read at most once per Tree): what the cache
// needs to name unchanged files by git's own object ids. It is read from the index file itself,
// which costs no process; a form of index this reader does not take (a split or sparse index, an
// unknown version, GIT_DIR or GIT_INDEX_FILE set) is asked of `git ls-files` instead.
func (s *Tree) Index(ctx context.Context) ([]IndexEntry, error) {
	s.indexOnce.Do(func() {
		if entries, ok := s.readIndexFile(); ok {
			s.index = entries
			return
		}
		args := append([]string{"ls-files", "-s", "-v", "-z"}, pathspec...)
		out, err := git.Output(ctx, s.Root, maxIndexOutput, args...)
		if err != nil {
			s.indexErr = fmt.Errorf("list the index: %w", classify(err))
			return
		}
		s.index = parseLsFiles(out)
	})
	return s.index, s.indexErr
}

// parseLsFiles reads `git ls-files -s -v -z`: a tag, the mode, the object id and the stage, then
// a tab and the path. The tag is S for skip-worktree and lower case for assume-unchanged.
func parseLsFiles(out []byte) []IndexEntry {
	var index []IndexEntry
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 || len(f[0]) != 1 {
			continue
		}
		if n := len(index); n > 0 && index[n-1].Path == string(path) {
			continue // an unmerged path has several stages; status marks it as changed anyway
		}
		tag := f[0][0]
		hidden := tag == 'S' || tag >= 'a' && tag <= 'z'
		index = append(index, IndexEntry{Path: string(path), Mode: f[1], OID: f[2], Hidden: hidden})
	}
	return index
}

// indexReadDeadline bounds the read of the index file (a local file, but it could be on a stuck
// network mount).
const indexReadDeadline = 10 * time.Second

// readIndexFile reads the index file of the work tree the root is in; ok is false when it must be
// asked of git.
func (s *Tree) readIndexFile() ([]IndexEntry, bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" || os.Getenv("GIT_INDEX_FILE") != "" ||
		os.Getenv("GIT_COMMON_DIR") != "" {
		return nil, false
	}
	// The object ids' length: HEAD's says which hash the repository uses.
	oidLen := len(s.Head) / 2
	if oidLen != 20 && oidLen != 32 {
		return nil, false
	}
	path, ok := indexPath(s.Root, s.prefix)
	if !ok {
		return nil, false
	}
	data, err := safefile.ReadFile(path, maxIndexFile, time.Now().Add(indexReadDeadline))
	if err != nil {
		return nil, false
	}
	entries, err := parseIndexFile(data, oidLen, s.prefix)
	if err != nil {
		return nil, false
	}
	return entries, true
}

// maxIndexFile bounds the index file: some 100 bytes a file, so some 600,000 files.
const maxIndexFile = 64 << 20

// indexPath finds the index file of the work tree whose top is above root by prefix: .git is a
// directory there, or a file naming the work tree's own git directory (a linked worktree, a
// submodule).
func indexPath(root, prefix string) (string, bool) {
	top := filepath.Clean(root)
	if prefix != "" {
		rel := filepath.FromSlash(strings.TrimSuffix(prefix, "/"))
		cut, ok := strings.CutSuffix(top, string(filepath.Separator)+rel)
		if !ok {
			return "", false
		}
		top = cut
	}
	dotGit := filepath.Join(top, ".git")
	info, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return "", false
	case info.IsDir():
		return filepath.Join(dotGit, "index"), true
	case !info.Mode().IsRegular():
		return "", false
	}
	data, err := safefile.ReadFile(dotGit, 4<<10, time.Now().Add(indexReadDeadline))
	if err != nil {
		return "", false
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok || gitDir == "" {
		return "", false
	}
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(top, gitDir)
	}
	return filepath.Join(gitDir, "index"), true
}

var errIndexForm = errors.New("an index this reader does not take")

// parseIndexFile reads git's index format (versions 2 to 4; see gitformat-index(5)): the entries
// under prefix, root-relative, outside gauntlet's state directory, with the first stage of an
// unmerged path. A split index (the "link" extension) or a sparse one (directory entries) is
// errIndexForm: git must be asked.
func parseIndexFile(data []byte, oidLen int, prefix string) ([]IndexEntry, error) {
	if len(data) < 12+oidLen || string(data[:4]) != "DIRC" {
		return nil, errIndexForm
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndexForm
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	body := data[:len(data)-oidLen] // the trailing checksum
	const statBytes = 40            // ctime, mtime, dev, ino, mode, uid, gid, size: 4 bytes each but times (8)
	pos := 12
	var index []IndexEntry
	var name []byte // the previous path, which version 4 compresses against
	for range count {
		start := pos
		if pos+statBytes+oidLen+2 > len(body) {
			return nil, errIndexForm
		}
		mode := binary.BigEndian.Uint32(body[pos+24 : pos+28])
		oid := body[pos+statBytes : pos+statBytes+oidLen]
		pos += statBytes + oidLen
		flags := binary.BigEndian.Uint16(body[pos : pos+2])
		pos += 2
		var extended uint16
		if flags&0x4000 != 0 {
			if version < 3 || pos+2 > len(body) {
				return nil, errIndexForm
			}
			extended = binary.BigEndian.Uint16(body[pos : pos+2])
			pos += 2
		}
		if version == 4 {
			strip, n := binary.Uvarint(body[pos:])
			if n <= 0 || strip > uint64(len(name)) {
				return nil, errIndexForm
			}
			pos += n
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, errIndexForm
			}
			name = append(name[:len(name)-int(strip)], body[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(body[pos:], 0)
			if end < 0 {
				return nil, errIndexForm
			}
			name = append(name[:0], body[pos:pos+end]...)
			// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
			pos = start + (pos+end-start+8)&^7
			if pos > len(body) {
				return nil, errIndexForm
			}
		}
		if mode&0o170000 == 0o040000 {
			return nil, errIndexForm // a sparse directory entry
		}
		path, ok := strings.CutPrefix(string(name), prefix)
		if !ok || path == "" || inStateDir(path) {
			continue
		}
		if n := len(index); n > 0 && index[n-1].Path == path {
			continue // an unmerged path has several stages; status marks it as changed anyway
		}
		index = append(index, IndexEntry{
			Path: path,
			Mode: fmt.Sprintf("%06o", mode),
			OID:  fmt.Sprintf("%x", oid),
			// assume-valid (assume-unchanged) in flags, skip-worktree in the extended flags.
			Hidden: flags&0x8000 != 0 || extended&0x4000 != 0,
		})
	}
	// Extensions follow: only the split index changes what the entries mean.
	for pos+8 <= len(body) {
		sig := string(body[pos : pos+4])
		size := int(binary.BigEndian.Uint32(body[pos+4 : pos+8]))
		if sig == "link" || sig == "sdir" {
			return nil, errIndexForm
		}
		pos += 8 + size
	}
	return index, nil
}
