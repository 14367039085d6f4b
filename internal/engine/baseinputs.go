package engine

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
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
// the change caused looked like the environment's. Those the session kept at its start (atStart,
// IgnoredInputs) are lent as they were then: one the agent broke during the session, which no
// diff shows, breaks the base no more; the others as they are now. Dependency folders are
// borrowed instead (borrowDependencies); build output, caches, artifacts and gauntlet's own
// files are not lent. A file is read inside the project (no link leads out) and written inside
// the base's checkout.
func lendIgnoredFiles(ctx context.Context, root, baseRoot string, atStart map[string][]byte) {
	to, err := os.OpenRoot(baseRoot)
	if err != nil {
		return
	}
	defer to.Close()
	lent := 0
	for _, name := range slices.Sorted(maps.Keys(atStart)) {
		if lent < maxLentFiles && lendablePath(name) && writeLent(to, name, atStart[name]) {
			lent++
		}
	}
	// A file kept at the start is lent as it was then: not read again.
	budget := sink{files: maxLentFiles - lent, bytes: maxLentBytes, fileBytes: maxLentFileBytes,
		skip: func(name string) bool { _, kept := atStart[name]; return kept },
		put:  func(name string, data []byte) bool { return writeLent(to, name, data) }}
	walkIgnored(ctx, root, &budget)
}

// What a session keeps of its ignored inputs at its start, in its sealed record: small files.
const (
	maxKeptFiles     = 100
	maxKeptFileBytes = 64 << 10
	maxKeptBytes     = 512 << 10
)

// IgnoredInputs reads the project's ignored inputs as lendIgnoredFiles would lend them, within
// the smaller bounds of what a session's record keeps: the stop lends these to the base's
// checkout as they were at the session's start.
func IgnoredInputs(ctx context.Context, root string) map[string][]byte {
	out := map[string][]byte{}
	budget := sink{files: maxKeptFiles, bytes: maxKeptBytes, fileBytes: maxKeptFileBytes,
		put: func(name string, data []byte) bool { out[name] = data; return true }}
	walkIgnored(ctx, root, &budget)
	return out
}

// walkIgnored gives the sink the project's ignored input files: those git lists, and the files
// of the directories it lists as wholly ignored, walked boundedly.
func walkIgnored(ctx context.Context, root string, to *sink) {
	ctx, cancel := context.WithTimeout(ctx, lendTimeout)
	defer cancel()
	out, err := git.Output(ctx, root, maxIgnoredList, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return
	}
	from, err := os.OpenRoot(root)
	if err != nil {
		return
	}
	defer from.Close()
	l := &lender{from: from, fromDir: root, to: to}
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

// sink takes the files read, within its bounds: put says whether it took one; a file skip
// names (when set) is not read.
type sink struct {
	files            int
	bytes, fileBytes int64
	skip             func(name string) bool
	put              func(name string, data []byte) bool
}

// lender reads the project's ignored files for a sink.
type lender struct {
	from     *os.Root
	fromDir  string
	to       *sink
	deadline time.Time
	walked   int
}

func (l *lender) full() bool {
	return l.to.files <= 0 || l.to.bytes <= 0 || l.walked >= maxLendWalk || time.Now().After(l.deadline)
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

// lend reads one regular file, boundedly, for the sink.
func (l *lender) lend(name string) {
	if !lendablePath(name) || (l.to.skip != nil && l.to.skip(name)) {
		return
	}
	f, info, err := safefile.OpenInRoot(l.from, name, l.deadline)
	if err != nil {
		return
	}
	defer f.Close()
	if info.Size() > l.to.fileBytes || info.Size() > l.to.bytes {
		return
	}
	data, err := safefile.ReadAllSized(f, l.to.fileBytes, l.deadline, info.Size())
	if err != nil {
		return
	}
	if l.to.put(name, data) {
		l.to.files--
		l.to.bytes -= int64(len(data))
	}
}

// writeLent writes one lent file to a path of the base's checkout that does not exist yet,
// read-only.
func writeLent(to *os.Root, name string, data []byte) bool {
	if dir := path.Dir(name); dir != "." {
		if err := to.MkdirAll(dir, 0o755); err != nil {
			return false
		}
	}
	w, err := to.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return false
	}
	_, err = w.Write(data)
	return w.Close() == nil && err == nil
}

// lendablePath says whether an ignored file may be lent: none of its directories is one never
// lent from, it is no build artifact, no test file (an ignored test is the change's, named
// change-hidden: lent, it would run in the base as well and hide what it does), and it is not
// gauntlet's own.
func lendablePath(name string) bool {
	if integrity.IsTestFile(name) {
		return false
	}
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
