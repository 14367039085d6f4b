package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// SafeDirectoryEnv names directories whose config gauntlet loads whoever owns it, like git's
// safe.directory: a list separated by the OS's path-list separator, or "*" for all.
const SafeDirectoryEnv = "GAUNTLET_SAFE_DIRECTORY"

// UntrustedError is a config that someone other than the user (or root) could have planted:
// running its commands would run theirs. It is a config error (exit 2), and the stop hook lets
// the agent stop with it as the cause.
type UntrustedError struct {
	Path   string
	Reason string
}

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("%s: refusing to load: %s", DisplayPath(e.Path), e.Reason)
}

// trust decides whose files may be loaded from one project. Inside a git repository gauntlet
// trusts what git trusts (its ownership check and safe.directory), so that a CI container
// running as root on a checkout owned by another uid works once git is told so. Outside git
// there is no such authority (the upward search could climb into /tmp), so a config or local
// override must belong to the user or to root.
type trust struct {
	euid    int
	inGit   bool
	gitRoot string
}

func (t trust) ownerOK(info fs.FileInfo) bool {
	uid, ok := safefile.Owner(info)
	return !ok || t.euid < 0 || uid == 0 || int(uid) == t.euid
}

// safeDirectory reports whether dir is listed in GAUNTLET_SAFE_DIRECTORY.
func safeDirectory(dir string) bool {
	list := os.Getenv(SafeDirectoryEnv)
	if list == "" {
		return false
	}
	for _, entry := range filepath.SplitList(list) {
		if entry == "*" {
			return true
		}
		if abs, err := filepath.Abs(entry); err == nil && abs == dir {
			return true
		}
	}
	return false
}

// checkFile refuses a config file (or local override) that is not the user's, outside git.
func (t trust) checkFile(path string, info fs.FileInfo) error {
	if t.inGit || t.ownerOK(info) || safeDirectory(filepath.Dir(path)) {
		return nil
	}
	uid, _ := safefile.Owner(info)
	return &UntrustedError{Path: path, Reason: fmt.Sprintf(
		"it is owned by uid %d, not by you (uid %d) or root, and is not in a git repository; "+
			"anyone who can write there could have planted it. If you trust it, set %s=%s",
		uid, t.euid, SafeDirectoryEnv, filepath.Dir(path))}
}

// checkGit asks git whether it trusts the repository when its top directory is not the user's.
// A repository the user owns needs no question (and no extra git process on the hot path).
func (t trust) checkGit(configPath string) error {
	if !t.inGit {
		return nil
	}
	info, err := os.Stat(t.gitRoot)
	if err != nil || t.ownerOK(info) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = git.Output(ctx, t.gitRoot, 1<<10, "rev-parse", "--git-dir")
	var gitErr *git.Error
	if errors.As(err, &gitErr) && strings.Contains(gitErr.Stderr, "dubious ownership") {
		uid, _ := safefile.Owner(info)
		return &UntrustedError{Path: configPath, Reason: fmt.Sprintf(
			"git does not trust the repository %s (owned by uid %d, not by you, uid %d); "+
				"if you trust it, run: git config --global --add safe.directory %s",
			t.gitRoot, uid, t.euid, t.gitRoot)}
	}
	// Any other git failure is not a trust decision; the commands that need git will say so.
	return nil
}
