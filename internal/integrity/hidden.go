package integrity

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// hashBatch bounds one `git hash-object` call's paths, far below any system's argument limit.
const hashBatch = 200

// hiddenChanges are the files git is told not to look at in the work tree (assume-unchanged,
// skip-worktree) that differ there from what the index holds. No diff shows their edits, so no
// other detector sees them: one `git update-index --assume-unchanged` before an edit (a t.Skip,
// a linter turned off in its config) would hide it. A skip-worktree file missing from the work
// tree is what a sparse checkout leaves, not a change; an assume-unchanged file missing was
// deleted. The work tree's content is hashed by git itself, with the file's line-ending
// conversion and Git LFS (no other filter driver: internal/git sets them aside), so that a file
// is called changed exactly when gauntlet's git calls would call it so.
func hiddenChanges(ctx context.Context, snap *snapshot.Snapshot) ([]gates.IntegrityFinding, error) {
	found, edited, err := hiddenEdits(ctx, snap)
	if err != nil {
		return nil, err
	}
	for _, ie := range edited {
		found = append(found, hiddenFinding(ie, "was edited"))
	}
	return found, nil
}

// hiddenEdits are the findings for hidden files deleted from the work tree, and the hidden
// entries whose work-tree file git hashes to another object than the index's.
func hiddenEdits(ctx context.Context, snap *snapshot.Snapshot) (deleted []gates.IntegrityFinding, edited []snapshot.IndexEntry, err error) {
	tree, err := snap.Tree(ctx)
	if err != nil {
		return nil, nil, err
	}
	special, err := tree.Special(ctx)
	if err != nil {
		return nil, nil, err
	}
	deleted, present := hiddenFiles(snap.Root(), special)
	for start := 0; start < len(present); start += hashBatch {
		batch, err := editedOf(ctx, snap.Root(), present[start:min(start+hashBatch, len(present))])
		if err != nil {
			return nil, nil, err
		}
		edited = append(edited, batch...)
	}
	return deleted, edited, nil
}

// hiddenFiles sorts the hidden entries among special: the findings for assume-unchanged files
// gone from the work tree, and the entries whose file is there, to be hashed. Links and
// submodules are left out: git stores no content of theirs to compare.
func hiddenFiles(root string, special []snapshot.IndexEntry) (found []gates.IntegrityFinding, present []snapshot.IndexEntry) {
	for _, ie := range special {
		if !ie.Hidden || ie.Mode == "120000" || ie.Mode == "160000" {
			continue
		}
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(ie.Path)))
		switch {
		case errors.Is(err, fs.ErrNotExist) && ie.AssumeUnchanged:
			found = append(found, hiddenFinding(ie, "was deleted"))
		case err == nil:
			present = append(present, ie)
		}
	}
	return found, present
}

// editedOf are the entries whose work-tree file git hashes to another object than the index's.
func editedOf(ctx context.Context, root string, entries []snapshot.IndexEntry) ([]snapshot.IndexEntry, error) {
	args := []string{"hash-object", "--"}
	for _, ie := range entries {
		args = append(args, ie.Path)
	}
	out, err := git.Output(ctx, root, len(entries)*72+1024, args...)
	if err != nil {
		return nil, err
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(entries) {
		return nil, errors.New("git hash-object: one object id per file expected")
	}
	var edited []snapshot.IndexEntry
	for i, ie := range entries {
		if ids[i] != ie.OID {
			edited = append(edited, ie)
		}
	}
	return edited, nil
}

func hiddenFinding(ie snapshot.IndexEntry, what string) gates.IntegrityFinding {
	flag := "skip-worktree"
	if ie.AssumeUnchanged {
		flag = "assume-unchanged"
	}
	return gates.IntegrityFinding{Rule: gates.RuleChangeHidden, File: ie.Path,
		Message: "git is told not to look at this file (" + flag + "), and it " + what + " in the work tree, where no diff shows it; " +
			"clear the flag (git update-index --no-" + flag + " " + ie.Path + ") so that the change is measured"}
}

// HiddenEdited are the files git is told not to look at (assume-unchanged, skip-worktree) that
// were edited in the work tree: the change's files all the same, for {files}.
func HiddenEdited(ctx context.Context, snap *snapshot.Snapshot) ([]string, error) {
	_, edited, err := hiddenEdits(ctx, snap)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ie := range edited {
		out = append(out, ie.Path)
	}
	return out, nil
}
