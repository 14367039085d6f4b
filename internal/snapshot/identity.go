package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Identities is what any rewrite of the tree's files changes, read at one moment: HEAD, and for
// every file of the index and every untracked file git shows, its type, size, modification time
// and, where the system tells them, its device, inode and change time. The content is not read:
// a file stashed and popped back, or moved away and back, has the same content and another
// identity, and a file only read keeps its own. Ignored files are not in it.
type Identities struct {
	Head  string
	Files map[string]string
}

// maxIdentityFiles bounds the files whose identities are read: a stat each, so some seconds at
// the most on a slow disk.
const maxIdentityFiles = 300_000

// ErrTooManyFiles says the tree holds more files than Identities reads.
var ErrTooManyFiles = errors.New("too many files to read their identities")

// Identities reads the identities of the tree's files now.
func (s *Tree) Identities(ctx context.Context) (Identities, error) {
	index, err := s.Index(ctx)
	if err != nil {
		return Identities{}, err
	}
	if len(index)+len(s.Entries) > maxIdentityFiles {
		return Identities{}, ErrTooManyFiles
	}
	ids := Identities{Head: s.Head, Files: make(map[string]string, len(index)+len(s.Entries))}
	for _, e := range index {
		ids.Files[e.Path] = s.identity(e.Path)
	}
	for _, e := range s.Entries {
		if e.Untracked {
			ids.Files[e.Path] = s.identity(e.Path)
		}
	}
	return ids, ctx.Err()
}

// identity is one file's: "missing" when it cannot be read.
func (s *Tree) identity(rel string) string {
	id, ok := FileID(filepath.Join(s.Root, filepath.FromSlash(rel)))
	if !ok {
		return "missing"
	}
	return id
}

// FileID is what any rewrite of the file at path (not followed if a link) changes: its type,
// permissions, size, modification time and, where the system tells them, its device, inode and
// change time. ok is false when it cannot be read.
func FileID(path string) (id string, ok bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	sys, _ := fileSysID(path, info)
	return fmt.Sprintf("%s\x00%d\x00%d%s", info.Mode().Type()|info.Mode().Perm(), info.Size(), info.ModTime().UnixNano(), sys), true
}

// Changed names, in path order, the files whose identity differs in after (created, deleted,
// rewritten, moved away and back), and "HEAD" when another commit is checked out.
func (ids Identities) Changed(after Identities) []string {
	var out []string
	for p, v := range ids.Files {
		if w, ok := after.Files[p]; !ok && v != "missing" || ok && w != v {
			out = append(out, p)
		}
	}
	for p, w := range after.Files {
		if _, ok := ids.Files[p]; !ok && w != "missing" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	if ids.Head != after.Head {
		out = append([]string{"HEAD"}, out...)
	}
	return out
}
