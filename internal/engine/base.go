package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseline"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// baseJudge finds what a new_only gate reports at the base of the change: from the baseline file
// committed at the base, else from the findings stored for this base and gate, else by running
// the gate in a temporary worktree of the base (under the gate's own timeout), once per gate and
// run. The worktree is shared by the gates of a run and removed when the run ends.
type baseJudge struct {
	root string // the project root (a repository's top, or a sub-project in it)
	// snap is the run's snapshot; the change it holds is read only when a gate needs the base.
	snap       *snapshot.Snapshot
	changeOnce sync.Once
	from       string // the commit the change is measured from; "" when there is none
	lines      snapshot.LineMap
	unchanged  bool // the tree is the commit: nothing to compare
	// notChange are files whose change alone leaves the tree the commit's (Request.NotTheChange).
	notChange []string
	// setupParent is the base commit's parent when the base commit changed setup files alone
	// (setupParentKey); read once.
	parentOnce  sync.Once
	setupParent string
	sd          *state.Dir
	openLogs    func() (*os.Root, error) // the run's log dir: the base's logs go under base/
	prefix      string                   // the log dir's repo-relative path
	env         []string
	extra       []string
	grace       time.Duration
	abort       <-chan struct{}
	runID       string
	noCache     bool // --no-cache: run the base again rather than read its stored findings
	// remote is the run's remote cache, where the base's measures may be stored; nil without.
	remote  *remotecache.Client
	baseMu  sync.Mutex
	file    *baseline.File // the baseline committed at the base; nil when none
	fileErr error
	fileRan bool

	// portableEnv is the identity of the environment the base's censuses are kept under;
	// sessionEnv, what steered the tools at the agent session's start (nil outside a session).
	envOnce     sync.Once
	portableEnv string
	sessionEnv  map[string]string
	// startInputs are the ignored inputs the session kept at its start (Request.StartInputs).
	startInputs map[string][]byte
	// sessionPinned is when the agent session's base was pinned (zero outside a session), and
	// stateAt when the state this run judges was asked for (a judge's request; zero: now).
	sessionPinned, stateAt time.Time
	hiddenOnce             sync.Once
	hidden                 []string // hiddenTests

	mu        sync.Mutex
	sets      map[string]*baseOnce
	causeSets map[string]*baseOnce // the base under the same environment (setUnderCause)
	wt        string               // the base's worktree (its top); "" until a gate needs it
	wtDir     string               // what to remove with it
	wtErr     error
}

type baseOnce struct {
	once sync.Once
	set  *baseline.Set
	err  error
}

// setFor is the findings.Options.Base of gate g.
func (j *baseJudge) setFor(g gates.Gate) func(context.Context) (*baseline.Set, error) {
	return func(ctx context.Context) (*baseline.Set, error) {
		return j.once(ctx, &j.sets, g, func() (*baseline.Set, error) { return j.find(ctx, g, "") })
	}
}

// setUnderCause is the findings.Options.SameEnvironment of gate g: what g reports at the base
// when it runs here, now, even when the environment fails it there too. A baseline committed at
// the base was written elsewhere, and findings stored from an earlier run of the base count only
// when the same cause failed it then: the environment may have changed since.
func (j *baseJudge) setUnderCause(g gates.Gate) func(context.Context, string) (*baseline.Set, error) {
	return func(ctx context.Context, cause string) (*baseline.Set, error) {
		return j.once(ctx, &j.causeSets, g, func() (*baseline.Set, error) { return j.find(ctx, g, cause) })
	}
}

// once finds the set of gate g at most once per run (sets holds them by gate) and gives each
// caller a copy.
func (j *baseJudge) once(ctx context.Context, sets *map[string]*baseOnce, g gates.Gate, find func() (*baseline.Set, error)) (*baseline.Set, error) {
	j.mu.Lock()
	if *sets == nil {
		*sets = map[string]*baseOnce{}
	}
	b := (*sets)[g.Name]
	if b == nil {
		b = &baseOnce{}
		(*sets)[g.Name] = b
	}
	j.mu.Unlock()
	b.once.Do(func() { b.set, b.err = find() })
	if b.err != nil {
		return nil, b.err
	}
	// Take consumes the set: each caller gets its own copy of the counts.
	return b.set.Clone(), nil
}

// readChange reads, once, the commit the run's change is measured from and the map of the tree's
// lines to that commit's.
func (j *baseJudge) readChange(ctx context.Context) {
	j.changeOnce.Do(func() {
		if j.snap == nil {
			return
		}
		change, err := j.snap.Change(ctx)
		if err != nil || change.Cut {
			return
		}
		j.lines, j.from = change.LineMap(), diffCommit(ctx, j.snap)
		j.unchanged = onlyAmong(change.Files, j.notChange)
	})
}

// onlyAmong says whether every changed file is one of paths: none at all is the usual case.
func onlyAmong(files []*snapshot.File, paths []string) bool {
	for _, f := range files {
		if !slices.Contains(paths, f.Path) {
			return false
		}
	}
	return true
}

// environmentKey marks the stored findings of a base run under a cause apart from new_only's.
const environmentKey = "+environment"

// find is what g reports at the base. With a cause, it is the base run under the environment
// that names that cause now (see setUnderCause); without, new_only's base: the stored findings,
// the committed baseline, or a run.
func (j *baseJudge) find(ctx context.Context, g gates.Gate, cause string) (*baseline.Set, error) {
	j.readChange(ctx)
	if j.from == "" {
		return nil, errors.New("the repository has no commit to compare with")
	}
	tool := cache.ToolVersion
	if cause != "" {
		if j.unchanged {
			// The base is the tree itself: it has every failure, run again or not.
			return nil, errors.New("the tree is the base")
		}
		tool += environmentKey
	}
	set, err := j.setAtBase(ctx, g, cause, baseline.CacheKey(g, j.from, tool))
	if err != nil {
		return nil, err
	}
	lines, err := j.linesFrom(ctx, set.Commit)
	if err != nil {
		return nil, err
	}
	set.Lines, set.Root = lines, j.root
	return set, nil
}

// setAtBase is the base's set of findings for g: the one kept under key (for the same cause),
// else the committed baseline file's (without a cause), else a run at the base, kept under key.
func (j *baseJudge) setAtBase(ctx context.Context, g gates.Gate, cause, key string) (*baseline.Set, error) {
	set, ok := baseline.LoadCached(j.sd, key)
	if ok && !j.noCache && (cause == "" || set.Cause == cause) {
		return set, nil
	}
	ok = false
	if cause == "" {
		set, ok = j.fromBaselineFile(ctx, g)
	}
	if !ok {
		var err error
		if set, err = j.run(ctx, g, cause); err != nil {
			return nil, err
		}
	}
	// A set that could not be stored is only found again next time.
	_ = baseline.SaveCached(j.sd, key, set)
	return set, nil
}

// linesFrom maps the tree's lines to those of commit: the run's own map for the merge-base, else
// one diff against a commit the change descends from (a baseline written before the base).
func (j *baseJudge) linesFrom(ctx context.Context, commit string) (snapshot.LineMap, error) {
	if commit == j.from {
		return j.lines, nil
	}
	snap := snapshot.New(j.root, snapshot.Options{Base: commit, PatchBytes: maxNewOnlyDiffBytes})
	change, err := snap.Change(ctx)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the change since %s could not be read: %w", short(commit), err)
	case change.Cut:
		return nil, fmt.Errorf("the change since %s is larger than new_only reads", short(commit))
	case diffCommit(ctx, snap) != commit:
		return nil, fmt.Errorf("%s is not a commit this change descends from", short(commit))
	}
	return change.LineMap(), nil
}

// fromBaselineFile reads the baseline as committed at the base, never the working tree's (which
// the change could edit), and uses the gate's entry when it was written for this gate's
// definition.
func (j *baseJudge) fromBaselineFile(ctx context.Context, g gates.Gate) (*baseline.Set, bool) {
	j.baseMu.Lock()
	if !j.fileRan {
		j.fileRan = true
		data, err := git.Output(ctx, j.root, baseline.MaxFileBytes, "show", j.from+":./"+baseline.FileName)
		if err == nil {
			j.file, j.fileErr = baseline.ParseFile(data)
		}
	}
	file := j.file
	j.baseMu.Unlock()
	if file == nil {
		return nil, false
	}
	e, ok := file.Gates[g.Name]
	if !ok || e.Definition != baseline.Definition(g) || !isHex(e.Commit) {
		return nil, false
	}
	set := e.Set(fmt.Sprintf("the baseline of %s (%s)", short(e.Commit), baseline.FileName))
	set.Commit = e.Commit
	return set, true
}

// run runs g in the base's worktree and collects everything it reports there. The base must have
// been judged by its exit code: one that timed out, could not start or failed for its
// environment (a fresh worktree has no node_modules) tells nothing about which findings are old.
// A cause ("" for none) takes a base failed by that same environment cause too, naming it in the
// set: what the base reports under the cause the change's run has is what that cause explains.
func (j *baseJudge) run(ctx context.Context, g gates.Gate, cause string) (*baseline.Set, error) {
	baseRoot, opts, done, err := j.prepare(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	source := j.source()
	bg := g
	bg.NewOnly, bg.Cache = false, false
	readers, collectors := collectReaders(baseRoot, slices.Concat(j.env, j.extra), []gates.Gate{bg})
	opts.Readers = readers
	res := runner.Run(ctx, []gates.Gate{bg}, opts)[0]
	switch {
	case res.Status == gates.StatusPass:
		set := baseline.NewSet(source, false)
		set.Commit = j.from
		return set, nil
	case failsAtBase(res, cause):
		set := baseline.NewSet(source, true)
		set.Commit = j.from
		if res.Status == gates.StatusError {
			set.Cause = res.Cause.ID
		}
		c := collectors[g.Name]
		for _, f := range c.findings {
			set.Add(f, baseRoot)
		}
		set.Complete = set.Complete && c.complete
		return set, nil
	}
	logPath := ""
	if res.Log != "" {
		logPath = " (its log: " + res.Log + ")"
	}
	return nil, fmt.Errorf("the gate could not be judged at %s: %s%s", source, res.Reason, logPath)
}

// failsAtBase says whether the base's result is a set of findings: a failure or a warning, or,
// when the base is asked about a cause, an error of that very cause (not a timeout).
func failsAtBase(res gates.Result, cause string) bool {
	if res.Status == gates.StatusFail || res.Status == gates.StatusWarn {
		return true
	}
	return cause != "" && res.Status == gates.StatusError && res.Cause != nil && res.Cause.ID == cause && !res.TimedOut
}

// prepare checks the base out (once per run) and gives what running one of its gates there
// needs: the project root in the checkout and the runner's options, its logs under base/ beside
// the run's. done releases what it opened.
func (j *baseJudge) prepare(ctx context.Context) (baseRoot string, opts runner.Options, done func(), err error) {
	return j.prepareLogs(ctx, "base")
}

// prepareLogs is prepare with the gates' logs under logDir of the run's log dir.
func (j *baseJudge) prepareLogs(ctx context.Context, logDir string) (baseRoot string, opts runner.Options, done func(), err error) {
	done = func() {}
	top, err := j.worktree(ctx)
	if err != nil {
		return "", opts, done, fmt.Errorf("the base could not be checked out: %w", err)
	}
	rel, err := j.projectPrefix(ctx)
	if err != nil {
		return "", opts, done, err
	}
	baseRoot = filepath.Join(top, filepath.FromSlash(rel))
	// A fresh checkout has no installed dependencies: the base borrows the project's, or its
	// gates would fail for want of them (xo: not found) and could confirm nothing.
	borrowDependencies(j.root, baseRoot)
	lendIgnoredFiles(ctx, j.root, baseRoot, j.startInputs)
	opts = runner.Options{
		RunID:    j.runID,
		Root:     baseRoot,
		Jobs:     1,
		Env:      j.env,
		ExtraEnv: j.extra,
		Grace:    j.grace,
		Abort:    j.abort,
	}
	if baseLogs, prefix, ok := subLogs(j.openLogs, j.prefix, logDir); ok {
		opts.Logs, opts.LogPrefix = baseLogs, prefix
		done = func() { baseLogs.Close() }
	}
	return baseRoot, opts, done, nil
}

// projectRoot is the project's root in the base's checkout, made (once per run) with what the
// base is lent: where a stop's control review runs (review.Kind.ControlDir).
func (j *baseJudge) projectRoot(ctx context.Context) (string, error) {
	j.readChange(ctx)
	if j.from == "" {
		return "", errors.New("the repository has no commit to compare with")
	}
	root, _, done, err := j.prepareLogs(ctx, "base")
	done()
	return root, err
}

// subLogs opens the folder name of the run's log dir (made when missing), for the logs of
// gates run besides the run's own (the base's, a rerun's); false without one. The caller closes
// it.
func subLogs(openLogs func() (*os.Root, error), prefix, name string) (*os.Root, string, bool) {
	if openLogs == nil {
		return nil, "", false
	}
	runLogs, err := openLogs()
	if err != nil {
		return nil, "", false
	}
	if err := runLogs.Mkdir(name, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, "", false
	}
	sub, err := runLogs.OpenRoot(name)
	if err != nil {
		return nil, "", false
	}
	return sub, prefix + "/" + name, true
}

// touched says whether the change touched file (root-relative); a test whose file is not known
// counts as touched when the change touches any test file, since it may be one of them.
func (j *baseJudge) touched(ctx context.Context, file string) bool {
	if j.snap == nil {
		return true
	}
	ch, err := j.snap.Change(ctx)
	if err != nil {
		return true
	}
	for _, f := range ch.Files {
		if f.Path == file || f.RenamedTo == file && file != "" || file == "" && integrity.IsTestFile(f.Path) {
			return true
		}
	}
	return false
}

// source names the base for reasons: "the merge-base 1a2b3c4d5e6f", or the session's.
func (j *baseJudge) source() string {
	if j.snap != nil && j.snap.Pinned() != "" {
		return "the session's base " + short(j.from)
	}
	return "the merge-base " + short(j.from)
}

// borrowDependencies links the dependency directories the project has into the base's checkout
// where it has none of its own.
func borrowDependencies(root, baseRoot string) {
	for _, d := range session.PresentDeps(root) {
		if _, err := os.Lstat(filepath.Join(baseRoot, d)); errors.Is(err, os.ErrNotExist) {
			os.Symlink(filepath.Join(root, d), filepath.Join(baseRoot, d))
		}
	}
}

// worktree checks the base out, once per run, outside the project, so that no tool of another
// gate sees a second copy of the code. The place is the same for every run of the project (in
// the user's cache directory, which no other user writes to): tools that key their caches by
// path, as the go command does, find theirs again at the next base. What a run killed before it
// could clean up left there is removed first; this run holds the project's lock.
func (j *baseJudge) worktree(ctx context.Context) (string, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.wt != "" || j.wtErr != nil {
		return j.wt, j.wtErr
	}
	dir, temporary, err := baseDir(j.root)
	if err != nil {
		j.wtErr = err
		return "", err
	}
	top := filepath.Join(dir, "tree")
	if _, err := os.Lstat(top); err == nil {
		git.Run(ctx, j.root, nil, "worktree", "remove", "--force", top)
		os.RemoveAll(top)
		git.Run(ctx, j.root, nil, "worktree", "prune")
	}
	// No hook of the repository runs on this checkout (post-checkout), and nothing is fetched.
	if err := git.Run(ctx, j.root, nil, "-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--force", top, j.from); err != nil {
		os.RemoveAll(top)
		j.wtErr = err
		return "", err
	}
	j.wt, j.wtDir = top, top
	if temporary {
		j.wtDir = dir
	}
	return top, nil
}

// baseDir is the project's directory for its base worktree: under the user's cache directory,
// else a new temporary one. It is created private to the user, and refused when it is anything
// but a directory of the user's own.
func baseDir(root string) (dir string, temporary bool, err error) {
	if cacheDir, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cacheDir, "gauntlet", "base", rootTag(root))
		if os.MkdirAll(dir, 0o700) == nil {
			info, err := os.Lstat(dir)
			if err != nil {
				return "", false, err
			}
			if !info.IsDir() {
				return "", false, fmt.Errorf("%s is not a directory", dir)
			}
			return dir, false, nil
		}
	}
	dir, err = os.MkdirTemp("", "gauntlet-base-")
	return dir, true, err
}

// projectPrefix is the project root's path inside its work tree ("" at the top), read from
// where `.git` is rather than from git.
func (j *baseJudge) projectPrefix(ctx context.Context) (string, error) {
	if layout, err := git.FindLayout(j.root); err == nil {
		rel, err := filepath.Rel(layout.TopLevel, j.root)
		switch {
		case err == nil && rel == ".":
			return "", nil
		case err == nil && filepath.IsLocal(rel):
			return filepath.ToSlash(rel), nil
		}
	}
	out, err := git.Output(ctx, j.root, 4096, "rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSpace(string(out)), "/"), nil
}

// close removes the base's worktree and git's record of it, whatever the run's context says.
func (j *baseJudge) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.wt == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), git.Timeout)
	defer cancel()
	// remove unregisters the worktree too; prune is for what it could not remove.
	if git.Run(ctx, j.root, nil, "worktree", "remove", "--force", j.wt) != nil {
		os.RemoveAll(j.wtDir)
		git.Run(ctx, j.root, nil, "worktree", "prune")
	}
	os.RemoveAll(j.wtDir)
	os.Remove(filepath.Dir(j.wt)) // the project's directory, when nothing else is left in it
	j.wt, j.wtDir = "", ""
}

// rootTag names a project's base worktree directory.
func rootTag(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:6])
}

func short(commit string) string { return commit[:min(12, len(commit))] }

func isHex(s string) bool {
	if len(s) < 7 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
