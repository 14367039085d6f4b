package engine

import (
	"context"
	"io/fs"
	"os"
	"path"
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

// What the base's checkout is lent of the project's ignored files: a few small files, wherever
// they are, within a bounded walk.
const (
	maxLentFiles     = 200
	maxLentFileBytes = 1 << 20
	maxLentBytes     = 8 << 20
	maxIgnoredList   = 1 << 20
	// maxLendWalk bounds the entries looked at inside the ignored directories git lists whole.
	maxLendWalk  = 10_000
	maxLendDepth = 8
	lendTimeout  = 10 * time.Second
)

// notLentDirs are directories never lent from, at any depth: dependency folders (borrowed whole
// instead, borrowDependencies), build output and caches, which the base makes for itself, and
// which copied there would have the base's build take the change's objects for its own.
var notLentDirs = map[string]bool{
	"node_modules": true, ".venv": true, "venv": true, "env": true, "target": true, "dist": true, "build": true,
	"out": true, "bin": true, "obj": true, "vendor": true, ".cache": true, "__pycache__": true, ".next": true,
	".nuxt": true, ".svelte-kit": true, ".turbo": true, ".parcel-cache": true, "coverage": true, ".nyc_output": true,
	".gradle": true, ".tox": true, ".nox": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	".terraform": true, ".git": true, state.Name: true,
	// An agent host's or reviewer CLI's own settings: no gate's input, and read by a reviewer
	// CLI by itself, so a stop's control review in the base's checkout would read the change's.
	".claude": true, ".codex": true, ".gemini": true, ".qwen": true, ".factory": true,
}

// notLentNames are files that instruct agent hosts and reviewer CLIs, which read them by
// themselves from the directory they run in: never a gate's input, and lent to the base's
// checkout they would steer the control review of a stop (internal/review) as they steered the
// change's.
var notLentNames = map[string]bool{
	"CLAUDE.md": true, "CLAUDE.local.md": true, "AGENTS.md": true, "AGENTS.override.md": true, "GEMINI.md": true, "QWEN.md": true,
}

// notLentExts are the extensions of build artifacts and logs: never inputs the base lacks.
var notLentExts = map[string]bool{
	".o": true, ".a": true, ".so": true, ".dylib": true, ".dll": true, ".exe": true, ".obj": true, ".lib": true,
	".class": true, ".jar": true, ".pyc": true, ".pyo": true, ".tsbuildinfo": true, ".log": true, ".map": true,
}

// lendIgnoredFiles copies the project's gitignored files (a `.env`, `web/.env`, a
// `config/local.yml`) into the base's checkout, read-only, where it has none: a fresh checkout
// lacks them, and a gate that reads one would fail at the base for want of it, so that an error
// the change caused looked like the environment's. Dependency folders are borrowed instead
// (borrowDependencies); build output, caches, artifacts and gauntlet's own files are not lent.
// The directories git lists as wholly ignored are walked, boundedly; what is lent is bounded in
// files and bytes. A file is read inside the project (no link leads out) and written inside the
// base's checkout.
func lendIgnoredFiles(ctx context.Context, root, baseRoot string) {
	ctx, cancel := context.WithTimeout(ctx, lendTimeout)
	defer cancel()
	out, err := git.Output(ctx, root, maxIgnoredList, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return
	}
	l, err := newLender(root, baseRoot)
	if err != nil {
		return
	}
	defer l.close()
	l.deadline, _ = ctx.Deadline()
	for _, name := range git.SplitNUL(out) {
		if l.full() || ctx.Err() != nil {
			return
		}
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			l.walk(dir)
			continue
		}
		l.lend(name)
	}
}

// lender copies files from the project into the base's checkout, within its bounds.
type lender struct {
	from, to *os.Root
	fromDir  string
	deadline time.Time
	files    int
	bytes    int64
	walked   int
}

func newLender(root, baseRoot string) (*lender, error) {
	from, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	to, err := os.OpenRoot(baseRoot)
	if err != nil {
		from.Close()
		return nil, err
	}
	return &lender{from: from, to: to, fromDir: root}, nil
}

func (l *lender) close() { l.from.Close(); l.to.Close() }

func (l *lender) full() bool {
	return l.files >= maxLentFiles || l.bytes >= maxLentBytes || l.walked >= maxLendWalk || time.Now().After(l.deadline)
}

// walk lends the files of a directory git lists as wholly ignored, skipping the directories that
// are never lent, to maxLendDepth.
func (l *lender) walk(dir string) {
	if !lendablePath(dir + "/x") {
		return
	}
	_ = filepath.WalkDir(filepath.Join(l.fromDir, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		l.walked++
		if err != nil || l.full() {
			return fs.SkipAll
		}
		rel, err := filepath.Rel(l.fromDir, p)
		if err != nil {
			return fs.SkipAll
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && (notLentDirs[d.Name()] || strings.Count(rel, "/") >= maxLendDepth):
			return fs.SkipDir
		case d.Type().IsRegular():
			l.lend(rel)
		}
		return nil
	})
}

// lend copies one regular file, read boundedly, to a path of the base's checkout that does not
// exist yet, read-only.
func (l *lender) lend(name string) {
	if !lendablePath(name) {
		return
	}
	f, info, err := safefile.OpenInRoot(l.from, name, l.deadline)
	if err != nil {
		return
	}
	defer f.Close()
	if info.Size() > maxLentFileBytes || l.bytes+info.Size() > maxLentBytes {
		return
	}
	data, err := safefile.ReadAllSized(f, maxLentFileBytes, l.deadline, info.Size())
	if err != nil {
		return
	}
	if dir := path.Dir(name); dir != "." {
		if err := l.to.MkdirAll(dir, 0o755); err != nil {
			return
		}
	}
	w, err := l.to.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return
	}
	_, err = w.Write(data)
	if w.Close() == nil && err == nil {
		l.files++
		l.bytes += int64(len(data))
	}
}

// lendablePath says whether an ignored file may be lent: none of its directories is one never
// lent from, it is no build artifact, and it is not gauntlet's own.
func lendablePath(name string) bool {
	parts := strings.Split(name, "/")
	for _, dir := range parts[:len(parts)-1] {
		if notLentDirs[dir] {
			return false
		}
	}
	base := parts[len(parts)-1]
	return !notLentExts[path.Ext(base)] && !notLentDirs[base] && !notLentNames[base] && !slices.Contains(session.DependencyDirs, base) &&
		name != config.LocalFileName
}
