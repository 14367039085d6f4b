package snapshot

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
	// AssumeUnchanged is set when assume-unchanged is among the reasons: unlike a skip-worktree
	// file, which a sparse checkout leaves out of the work tree, such a file is meant to be there.
	AssumeUnchanged bool
}

// Index lists the files of the index under the root (read at most once per Tree): what the cache
// needs to name unchanged files by git's own object ids. It is read from the index file itself,
// which costs no process; a form of index this reader does not take (a split or sparse index, an
// unknown version, GIT_DIR or GIT_INDEX_FILE set) is asked of `git ls-files` instead.
func (s *Tree) Index(ctx context.Context) ([]IndexEntry, error) {
	s.indexOnce.Do(func() {
		defer s.indexDone.Store(true)
		if entries, ok := s.readIndexFile(nil); ok {
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

// Special lists the files of the index that git status says nothing about yet a reader of the
// tree must look at: those git is told not to look at in the work tree (Hidden), and symlinks
// (what they lead to is not in git). The stop hook's fingerprint needs these alone, so when the
// whole index has not been read it reads the index file keeping only them: on a large tree most
// of the cost of the whole listing is making an entry of every file.
func (s *Tree) Special(ctx context.Context) ([]IndexEntry, error) {
	s.specialOnce.Do(func() {
		special := func(mode uint32, hidden bool) bool { return hidden || mode&0o170000 == 0o120000 }
		if !s.indexRead() {
			if entries, ok := s.readIndexFile(special); ok {
				s.special = entries
				return
			}
		}
		index, err := s.Index(ctx)
		if err != nil {
			s.specialErr = err
			return
		}
		for _, e := range index {
			mode, _ := strconv.ParseUint(e.Mode, 8, 32)
			if special(uint32(mode), e.Hidden) {
				s.special = append(s.special, e)
			}
		}
	})
	return s.special, s.specialErr
}

// IndexID identifies the index file's present version by what any rewrite of it changes (git
// replaces the file whole: a new inode, size and times), so that what was read of it can be
// remembered; ok is false when it cannot be told (the index is asked of git, or missing).
func (s *Tree) IndexID() (string, bool) {
	if gitRedirected() {
		return "", false
	}
	path, ok := indexPath(s.Root, s.prefix)
	if !ok {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	sys, ok := fileSysID(path, info)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d%s", path, s.prefix, info.Size(), info.ModTime().UnixNano(), sys), true
}

// SetSpecial gives the tree the special entries remembered for its index file (see IndexID), so
// that Special need not read it.
func (s *Tree) SetSpecial(entries []IndexEntry) {
	s.specialOnce.Do(func() { s.special = entries })
}

// indexRead says whether Index has been read already.
func (s *Tree) indexRead() bool { return s.indexDone.Load() }

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
		if isLaterStage(index, string(path)) {
			continue
		}
		index = append(index, IndexEntry{Path: string(path), Mode: f[1], OID: f[2], Hidden: isHiddenTag(f[0][0]),
			AssumeUnchanged: f[0][0] >= 'a' && f[0][0] <= 'z'})
	}
	return index
}

// isHiddenTag reports ls-files -v's tag of a file whose changes git does not look for: S for
// skip-worktree, lower case for assume-unchanged.
func isHiddenTag(tag byte) bool { return tag == 'S' || tag >= 'a' && tag <= 'z' }

// indexReadDeadline bounds the read of the index file (a local file, but it could be on a stuck
// network mount).
const indexReadDeadline = 10 * time.Second

// readIndexFile reads the index file of the work tree the root is in, keeping the entries keep
// says (all when nil); ok is false when it must be asked of git.
func (s *Tree) readIndexFile(keep func(mode uint32, hidden bool) bool) ([]IndexEntry, bool) {
	if gitRedirected() {
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
	entries, err := parseIndexFile(data, oidLen, s.prefix, keep)
	if err != nil {
		return nil, false
	}
	return entries, true
}

// gitRedirected reports variables that move git's directory, work tree or index elsewhere than
// the work tree's .git says: only git knows then which index is meant.
func gitRedirected() bool {
	for _, name := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"} {
		if os.Getenv(name) != "" {
			return true
		}
	}
	return false
}

// modeString is git's six-digit octal mode; the few modes files have are spelt without
// formatting, which a large index would otherwise spend most of its parsing time on.
func modeString(mode uint32) string {
	switch mode {
	case 0o100644:
		return "100644"
	case 0o100755:
		return "100755"
	case 0o120000:
		return "120000"
	case 0o160000:
		return "160000"
	}
	return fmt.Sprintf("%06o", mode)
}

// maxIndexFile bounds the index file: some 100 bytes a file, so some 600,000 files.
const maxIndexFile = 64 << 20

// indexPath finds the index file of the work tree whose top is above root by prefix: .git is a
// directory there, or a file naming the work tree's own git directory (a linked worktree, a
// submodule).
func indexPath(root, prefix string) (string, bool) {
	top, ok := worktreeTop(root, prefix)
	if !ok {
		return "", false
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
	gitDir, ok := linkedGitDir(dotGit, top)
	if !ok {
		return "", false
	}
	return filepath.Join(gitDir, "index"), true
}

// worktreeTop is the work tree's top: root without prefix, the path below the top it stands at.
func worktreeTop(root, prefix string) (string, bool) {
	top := filepath.Clean(root)
	if prefix == "" {
		return top, true
	}
	rel := filepath.FromSlash(strings.TrimSuffix(prefix, "/"))
	return strings.CutSuffix(top, string(filepath.Separator)+rel)
}

// linkedGitDir reads the git directory a .git file names ("gitdir: PATH"), relative to top.
func linkedGitDir(dotGit, top string) (string, bool) {
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
	return gitDir, true
}

var errIndexForm = errors.New("an index this reader does not take")

// parseIndexFile reads git's index format (versions 2 to 4; see gitformat-index(5)): the entries
// under prefix, root-relative, outside gauntlet's state directory, with the first stage of an
// unmerged path. A split index (the "link" extension) or a sparse one (directory entries) is
// errIndexForm: git must be asked.
func parseIndexFile(data []byte, oidLen int, prefix string, keep func(mode uint32, hidden bool) bool) ([]IndexEntry, error) {
	r, count, err := newIndexReader(data, oidLen)
	if err != nil {
		return nil, err
	}
	var index []IndexEntry
	if keep == nil {
		// Room for every entry the data can hold: a header claiming more must not allocate more.
		index = make([]IndexEntry, 0, min(count, len(data)/(62+oidLen-20)))
	}
	for range count {
		e, err := r.next()
		if err != nil {
			return nil, err
		}
		if e.mode&0o170000 == 0o040000 {
			return nil, errIndexForm // a sparse directory entry
		}
		path, ok := r.keptPath(e, prefix, keep)
		if !ok || isLaterStage(index, path) {
			continue
		}
		index = append(index, IndexEntry{Path: path, Mode: modeString(e.mode), OID: hex.EncodeToString(e.oid), Hidden: e.hidden, AssumeUnchanged: e.assumed})
	}
	if r.splitOrSparse() {
		return nil, errIndexForm
	}
	return index, nil
}

// keptPath is the current entry's root-relative path; ok is false for an entry keep leaves out,
// or one outside the project or in gauntlet's state directory.
func (r *indexReader) keptPath(e indexEntry, prefix string, keep func(mode uint32, hidden bool) bool) (string, bool) {
	if keep != nil && !keep(e.mode, e.hidden) {
		return "", false
	}
	path, ok := strings.CutPrefix(string(r.name), prefix)
	return path, ok && path != "" && !inStateDir(path)
}

// isLaterStage reports a path the index listed just before: an unmerged path has several
// stages, and status marks it as changed anyway.
func isLaterStage(index []IndexEntry, path string) bool {
	n := len(index)
	return n > 0 && index[n-1].Path == path
}

// indexReader walks the entries of an index file (versions 2 to 4) within its body, the
// trailing checksum cut off.
type indexReader struct {
	body    []byte
	pos     int
	version uint32
	oidLen  int
	name    []byte // the current entry's path; version 4 compresses each against the previous
}

// indexEntry is what an entry says besides its path (in indexReader.name).
type indexEntry struct {
	mode    uint32
	oid     []byte
	hidden  bool
	assumed bool // assume-unchanged
}

// statBytes is an entry's ctime, mtime, dev, ino, mode, uid, gid and size: 4 bytes each but the
// times (8).
const statBytes = 40

func newIndexReader(data []byte, oidLen int) (*indexReader, int, error) {
	if len(data) < 12+oidLen || string(data[:4]) != "DIRC" {
		return nil, 0, errIndexForm
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, 0, errIndexForm
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	return &indexReader{body: data[:len(data)-oidLen], pos: 12, version: version, oidLen: oidLen}, count, nil
}

// next reads the next entry.
func (r *indexReader) next() (indexEntry, error) {
	start, body := r.pos, r.body
	if r.pos+statBytes+r.oidLen+2 > len(body) {
		return indexEntry{}, errIndexForm
	}
	e := indexEntry{mode: binary.BigEndian.Uint32(body[r.pos+24 : r.pos+28]), oid: body[r.pos+statBytes : r.pos+statBytes+r.oidLen]}
	r.pos += statBytes + r.oidLen
	flags := binary.BigEndian.Uint16(body[r.pos : r.pos+2])
	r.pos += 2
	var extended uint16
	if flags&0x4000 != 0 {
		if r.version < 3 || r.pos+2 > len(body) {
			return indexEntry{}, errIndexForm
		}
		extended = binary.BigEndian.Uint16(body[r.pos : r.pos+2])
		r.pos += 2
	}
	// assume-valid (assume-unchanged) in flags, skip-worktree in the extended flags.
	e.assumed = flags&0x8000 != 0
	e.hidden = e.assumed || extended&0x4000 != 0
	if r.version == 4 {
		return e, r.compressedName()
	}
	return e, r.paddedName(start)
}

// compressedName reads a version 4 path: how much of the previous one to drop, then the rest.
func (r *indexReader) compressedName() error {
	strip, n := binary.Uvarint(r.body[r.pos:])
	if n <= 0 || strip > uint64(len(r.name)) {
		return errIndexForm
	}
	r.pos += n
	end := bytes.IndexByte(r.body[r.pos:], 0)
	if end < 0 {
		return errIndexForm
	}
	r.name = append(r.name[:len(r.name)-int(strip)], r.body[r.pos:r.pos+end]...)
	r.pos += end + 1
	return nil
}

// paddedName reads a version 2 or 3 path: 1 to 8 NULs pad the entry (from start) to a multiple
// of 8 bytes.
func (r *indexReader) paddedName(start int) error {
	end := bytes.IndexByte(r.body[r.pos:], 0)
	if end < 0 {
		return errIndexForm
	}
	r.name = append(r.name[:0], r.body[r.pos:r.pos+end]...)
	r.pos = start + (r.pos+end-start+8)&^7
	if r.pos > len(r.body) {
		return errIndexForm
	}
	return nil
}

// splitOrSparse reads the extensions after the entries: only a split index or a sparse one
// changes what the entries mean.
func (r *indexReader) splitOrSparse() bool {
	for pos := r.pos; pos+8 <= len(r.body); {
		sig := string(r.body[pos : pos+4])
		if sig == "link" || sig == "sdir" {
			return true
		}
		pos += 8 + int(binary.BigEndian.Uint32(r.body[pos+4:pos+8]))
	}
	return false
}
