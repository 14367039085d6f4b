package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// What the base's checkout is lent of the project's ignored files: a few small files at the root.
const (
	maxLentFiles     = 200
	maxLentFileBytes = 1 << 20
	maxIgnoredList   = 1 << 20
	lendTimeout      = 10 * time.Second
)

// lendIgnoredFiles copies the project root's gitignored files (a `.env`, a local settings file)
// into the base's checkout, read-only, where it has none: a fresh checkout lacks them, and a gate
// that reads one would fail at the base for want of it, so that an error the change caused looked
// like the environment's. Dependency folders are borrowed instead (borrowDependencies); gauntlet's
// own files and directories are not lent. Only regular files directly at the root are: the
// ignored trees below it are build output and caches, which the base makes for itself.
func lendIgnoredFiles(ctx context.Context, root, baseRoot string) {
	ctx, cancel := context.WithTimeout(ctx, lendTimeout)
	defer cancel()
	out, err := git.Output(ctx, root, maxIgnoredList, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return
	}
	deadline, _ := ctx.Deadline()
	lent := 0
	for _, name := range git.SplitNUL(out) {
		if lent == maxLentFiles || !lendable(name) {
			continue
		}
		if lendFile(filepath.Join(root, name), filepath.Join(baseRoot, name), deadline) {
			lent++
		}
	}
}

// lendable says whether an ignored entry is one the base is lent: a file at the root, neither a
// dependency folder nor gauntlet's own.
func lendable(name string) bool {
	return !strings.ContainsRune(name, '/') && !slices.Contains(session.DependencyDirs, name) &&
		name != state.Name && name != config.LocalFileName
}

// lendFile copies one regular file, read boundedly, to a path that does not exist yet, read-only.
func lendFile(from, to string, deadline time.Time) bool {
	info, err := os.Lstat(from)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxLentFileBytes {
		return false
	}
	if _, err := os.Lstat(to); err == nil {
		return false
	}
	data, err := safefile.ReadFile(from, maxLentFileBytes, deadline)
	if err != nil {
		return false
	}
	return os.WriteFile(to, data, 0o444) == nil
}
