package stophook

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// ErrNotGit is returned by Fingerprint outside a git work tree (or without git): there is no
// state to recognise, so the caller runs the gates every time.
var ErrNotGit = snapshot.ErrNotGit

// fingerprintVersion changes whenever what goes into the hash changes, so that a fingerprint
// stored by an older gauntlet never matches one computed by a newer one.
const fingerprintVersion = "gauntlet-fp-3"

// Fingerprint identifies the state the gates would judge: HEAD, the index and the working tree
// against it, the untracked (not ignored) files' contents, and the effective config. Same
// fingerprint, same verdict.
//
// root is the project root; it may be a subdirectory of the work tree, and then nothing outside
// it counts. config is hashed as given. Outside a git work tree the error is ErrNotGit.
func Fingerprint(ctx context.Context, root string, config []byte) (string, error) {
	tree, err := snapshot.New(root, snapshot.Options{}).Tree(ctx)
	if err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", root, err)
	}
	return fingerprintTree(ctx, tree, config)
}

// fingerprintTree hashes one reading of the tree: git status names every path that differs from
// HEAD with its index object id, so only the work-tree files it lists (changed or untracked) are
// read. Staging alone changes the fingerprint, as a gate may look at the index.
func fingerprintTree(ctx context.Context, tree *snapshot.Tree, config []byte) (string, error) {
	sum := sha256.New()
	snapshot.Field(sum, "version", []byte(fingerprintVersion))
	snapshot.Field(sum, "head", []byte(tree.Head))
	snapshot.Field(sum, "count", binary.BigEndian.AppendUint64(nil, uint64(len(tree.Entries))))
	for _, e := range tree.Entries {
		snapshot.Field(sum, "path", []byte(e.Path))
		snapshot.Field(sum, "meta", []byte(e.Meta))
		if !e.Worktree {
			continue
		}
		digest, err := tree.FileDigest(ctx, e.Path)
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", tree.Root, err)
		}
		snapshot.Field(sum, "worktree", digest)
	}
	snapshot.Field(sum, "config", config)
	return fmt.Sprintf("%x", sum.Sum(nil)), nil
}
