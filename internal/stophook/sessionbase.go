package stophook

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseconfig"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/envid"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// judging is what an agent session's stop (or its background judge) is judged with: the config
// (the one at the session's base, with the gates the change adds), the commit the change is
// measured from, and what the change did to the base's config.
type judging struct {
	cfg *config.Config
	// base is the session's pinned commit; "" when the session has none (a host that names no
	// session, a repository without commits, no key to seal it with): the change is then measured
	// as `gauntlet run` measures it.
	base string
	// baseJudged: cfg is the base's config (combined), and findings are about it.
	baseJudged bool
	findings   []gates.IntegrityFinding
	// envChanged names what steers the tools that differs from the session's start.
	envChanged []string
	// note says, for stderr, why the session has no base when something failed (git), or that
	// its base moved onto upstream work.
	note string
	// tree is the work tree as pinning a new session read it, for the stop's own snapshot.
	tree *snapshot.Tree
	// steering is what steers the tools now (envid), read once per call; startEnv is what
	// steered them at the session's start, from its record (nil without one).
	steering map[string]string
	startEnv map[string]string
	// startInputs are the ignored inputs the session's record kept (engine.IgnoredInputs).
	startInputs map[string][]byte
	// atStart says the base was pinned at the session's start (its session-start hook), before
	// the agent could commit anything: only such a base may excuse a failure as pre-existing.
	atStart bool
	// pinned is when the session's base was pinned (zero without a record): measures of the
	// base a run in the work tree took after it are not believed.
	pinned time.Time
}

// endsAtFirstFailure says whether the stop stops the other gates after the first required
// failure (first_failure's grace). Only where every failure blocks: where a pre-existing one does
// not, a failure is known to be the change's only once compared with the base, and the gates
// stopped for one the base has too would leave the stop unjudged.
func (j judging) endsAtFirstFailure(cfg *config.Config) bool {
	return !cfg.StopHook.FirstFailure.Wait && j.counts(cfg)(gates.BlamePreExisting)
}

// counts says which failures block this session's stop, by their blame: pre-existing ones only
// when the project says so, or when the base was not pinned at the session's start (pinned at a
// later stop, it may hold the agent's own commits, and "failing at the base too" proves nothing).
func (j judging) counts(cfg *config.Config) func(gates.Blame) bool {
	preExistingBlocks := cfg.StopHook.PreExisting == config.PreExistingBlock || !j.atStart
	return func(b gates.Blame) bool { return b.Blocks(preExistingBlocks) }
}

// pinTimeout bounds the git calls that pin a new session: the first hook call of a session pays
// them once.
const pinTimeout = 10 * time.Second

// sessionJudging decides what judges the session's stop. loaded and loadErr are the config as
// the work tree has it; when it is missing or broken, the config the session's base holds
// judges, with a finding. loadErr itself is returned when nothing can judge (no config at the
// base either): the caller answers as it does without one.
func sessionJudging(ctx context.Context, dir, sessionKey, how string, loaded *config.Config, loadErr error, environ []string) (judging, error) {
	if loadErr != nil {
		return judgingWithoutConfig(ctx, dir, sessionKey, loadErr)
	}
	forStop, _, _ := loaded.ForStopHook()
	j := judging{cfg: forStop, steering: envid.Steering(environ, loaded.Root)}
	if sessionKey == "" {
		return j, nil
	}
	rec, tree, err := pinSession(ctx, loaded, sessionKey, how, j.steering)
	j.tree = tree
	if err != nil {
		j.pinFailed(loaded, err)
		return j, nil
	}
	j.fromRecord(ctx, loaded, forStop, rec)
	return j, nil
}

// pinFailed judges a session whose base could not be read or pinned. Only what the gated agent
// cannot cause leaves the stop measured as `run` would, unremarked: a user without a state
// directory, a project outside git. The agent runs as the user and reaches the user's state
// directory: a key it made readable to others (refused), a record it altered, or one it made
// unreadable or unwritable (a folder replaced by a file) would otherwise turn the pin off and let
// the refs, which it moves, decide the base again. Each is an attempt that blocks.
func (j *judging) pinFailed(loaded *config.Config, err error) {
	switch {
	case errors.Is(err, seal.ErrNoStateDir), errors.Is(err, snapshot.ErrNotGit):
		return
	case errors.Is(err, session.ErrTampered):
		j.block(loaded, "gauntlet's record of the session's base was altered ("+oneLine(err.Error())+"): the change is measured from the configured base")
	case errors.Is(err, session.ErrNoKey), errors.Is(err, session.ErrUnusable):
		j.block(loaded, "gauntlet's record of the session's base cannot be used ("+oneLine(err.Error())+
			"): without it the session's base is unknown; restore gauntlet's state directory (the key private, mode 0600), then stop again")
	default:
		j.note = oneLine(err.Error()) + "; the change is measured from the configured base"
	}
}

// block records a finding that blocks the stop for what was done to the session's pin.
func (j *judging) block(loaded *config.Config, message string) {
	j.findings = append(j.findings, gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: engine.ConfigFile(loaded),
		Message: message, Level: gates.IntegrityBlock})
	j.baseJudged = true
}

// fromRecord judges with what the session's record says: the environment it started in, its
// base (moved onto upstream work a remote vouches for), and the config at that base.
func (j *judging) fromRecord(ctx context.Context, loaded, forStop *config.Config, rec *session.Record) {
	if rec.Late {
		j.findings = append(j.findings, gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: engine.ConfigFile(loaded), Level: gates.IntegrityBlock,
			Message: "gauntlet's record of the session's base was removed after the session's first stop: the base is measured from where the refs are now, which the session may have moved"})
	}
	j.atStart = rec.How == session.PinnedAtStart && !rec.Late
	j.pinned = rec.Pinned
	j.startEnv = startEnvironment(rec)
	j.startInputs = rec.Inputs
	j.envChanged = envid.Changed(j.startEnv, j.steering)
	for _, d := range rec.MissingDeps(loaded.Root) {
		j.envChanged = append(j.envChanged, d+" removed")
	}
	// A filter driver steers what git shows of the tree (gauntlet's own calls set it aside); one
	// the session added is named, like any other change of what steers the tools.
	j.envChanged = append(j.envChanged, rec.AddedFilters(git.FilterDrivers(ctx, loaded.Root))...)
	// The base's checkout borrows the dependency directories: an executable removed or replaced
	// there breaks the base too, and "the base fails the same way" would excuse the change.
	j.envChanged = append(j.envChanged, rec.ChangedBins(loaded.Root)...)
	j.envChanged = append(j.envChanged, rec.ChangedPackages(loaded.Root)...)
	j.envChanged = append(j.envChanged, rec.ChangedDists(loaded.Root)...)
	adv, lost := advanced(ctx, loaded.Root, rec, j.head(ctx, loaded.Root, rec))
	j.base, j.note = adv.Base, advanceNote(adv, rec.Base)
	if lost {
		j.findings = append(j.findings, gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: ".git", Level: gates.IntegrityBlock,
			Message: "the repository's history lacks the session's base " + rec.Base[:min(12, len(rec.Base))] +
				": it is not the repository the session started in (.git moved away or replaced, or HEAD on a branch without history), so the change cannot be measured from the base; restore the session's repository, then stop again"})
	}
	if adv.Config == nil {
		return
	}
	base, err := configOfBase(loaded, filepath.Join(loaded.Root, adv.ConfigPath), adv.Config)
	if err != nil {
		return // the base's own config did not load: nothing of it can judge
	}
	main := loaded
	if loaded.MainOnly != nil {
		main = loaded.MainOnly
	}
	judged := baseconfig.Judge(base, forStop, main, engine.ConfigFile(loaded))
	j.cfg, j.findings, j.baseJudged = judged.Config, append(j.findings, judged.Findings...), true
}

// configOfBase is the config the session's base holds (its bytes data, at path): when the work
// tree's config is that very file, unchanged and without a local override, the one loaded is it,
// and it is not parsed again.
func configOfBase(loaded *config.Config, path string, data []byte) (*config.Config, error) {
	if loaded.ParsedFrom(path, data) {
		return loaded, nil
	}
	return config.Parse(path, data, loaded.Root)
}

// head is HEAD, for checking that the repository still holds the session's base and moving the
// base onto upstream work the session merged (which is not its own) when a remote vouches for it:
// the tree read for it is the stop's own reading, handed on. "" when it is not read.
func (j *judging) head(ctx context.Context, root string, rec *session.Record) string {
	if j.tree == nil && rec.Base != "" {
		if t, err := snapshot.New(root, snapshot.Options{}).Tree(ctx); err == nil {
			j.tree = t
		}
	}
	if j.tree == nil {
		return ""
	}
	return j.tree.Head
}

// judgingWithoutConfig is a stop whose work tree has no config that loads: the session's base
// config judges it, never "no config, allow".
func judgingWithoutConfig(ctx context.Context, dir, sessionKey string, loadErr error) (judging, error) {
	if sessionKey == "" {
		return judging{}, loadErr
	}
	rec, err := session.Find(dir, sessionKey)
	if err != nil && !errors.Is(err, seal.ErrNoStateDir) {
		return judgingWithoutRecord(ctx, dir, err, loadErr)
	}
	if err != nil || rec == nil || rec.Config == nil {
		return judging{}, loadErr
	}
	base, err := config.Parse(filepath.Join(rec.Project, rec.ConfigPath), rec.Config, rec.Project)
	if err != nil {
		return judging{}, loadErr
	}
	why := rec.ConfigPath + " is deleted"
	if !errors.Is(loadErr, config.ErrNotFound) {
		why = rec.ConfigPath + " does not load (" + oneLine(loadErr.Error()) + ")"
	}
	judged := baseconfig.Missing(base, rec.ConfigPath, why)
	return judging{cfg: judged.Config, base: rec.Base, baseJudged: true, findings: judged.Findings}, nil
}

// judgingWithoutRecord is a stop whose config is gone and whose record cannot be read (the key
// refused, the record unreadable or altered): deleting the config must not turn such a stop into
// "no config, allow". The config HEAD holds judges, and the record's state blocks (pinFailed).
// Without a config at HEAD either there is nothing to judge with: loadErr, as before.
func judgingWithoutRecord(ctx context.Context, dir string, recErr, loadErr error) (judging, error) {
	layout, err := git.FindLayout(dir)
	if err != nil {
		return judging{}, loadErr
	}
	ctx, cancel := context.WithTimeout(ctx, pinTimeout)
	defer cancel()
	name, data := configAt(ctx, layout.TopLevel, "HEAD", "")
	if data == nil {
		return judging{}, loadErr
	}
	head, err := config.Parse(filepath.Join(layout.TopLevel, name), data, layout.TopLevel)
	if err != nil {
		return judging{}, loadErr
	}
	judged := baseconfig.Missing(head, name, name+" is gone from the work tree")
	j := judging{cfg: judged.Config, baseJudged: true, findings: judged.Findings}
	j.pinFailed(head, recErr)
	return j, nil
}

// PinSession returns the session's base, recording it at the session's first hook call: HEAD at
// a session's start, else (a host without a session-start hook, or gauntlet installed
// mid-session) the base `run` would measure from now, which is never later than HEAD. Once
// pinned, it is one sealed read.
func PinSession(ctx context.Context, cfg *config.Config, key, how string, environ []string) (*session.Record, error) {
	rec, _, err := pinSession(ctx, cfg, key, how, envid.Steering(environ, cfg.Root))
	return rec, err
}

// pinSession is PinSession, also returning the work tree it read to pin a new session.
// inputsAtStart are what the base's checkout borrows or is lent, as the session starts with
// them: the installed packages' versions and the small ignored inputs.
type inputsAtStart struct {
	packages map[string]string
	dists    []string
	ignored  map[string][]byte
}

// readInputsAtStart reads the inputs at the start beside the caller's own reading of the tree
// (git status): the ignored files are another walk of the tree by git. The function it returns
// waits for them.
func readInputsAtStart(ctx context.Context, root string) func() inputsAtStart {
	done := make(chan inputsAtStart, 1)
	go func() {
		done <- inputsAtStart{packages: session.DepPackages(root), dists: session.DepDists(root), ignored: engine.IgnoredInputs(ctx, root)}
	}()
	return func() inputsAtStart { return <-done }
}

func pinSession(ctx context.Context, cfg *config.Config, key, how string, steering map[string]string) (*session.Record, *snapshot.Tree, error) {
	if rec, err := session.Load(cfg.Root, key); rec != nil || err != nil {
		return rec, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, pinTimeout)
	defer cancel()
	snap := snapshot.New(cfg.Root, snapshot.Options{Base: cfg.Base})
	inputs := readInputsAtStart(ctx, cfg.Root)
	tree, err := snap.Tree(ctx)
	in := inputs()
	if err != nil {
		return nil, nil, fmt.Errorf("pin the session's base: %w", err)
	}
	rec := &session.Record{Project: cfg.Root, Session: key, How: how, Pinned: time.Now().UTC(),
		Env: steering, EnvFormat: envid.Format, Deps: session.PresentDeps(cfg.Root),
		Filters: git.FilterDrivers(ctx, cfg.Root), FiltersKnown: true,
		Bins: session.DepBins(cfg.Root), BinsKnown: true, Packages: in.packages, PackagesKnown: true,
		Dists: in.dists, DistsKnown: true, Inputs: in.ignored, Remotes: remotesOf(cfg.Root), Late: stoppedBefore(cfg.Root, key)}
	if tree.Head == snapshot.NoCommit {
		rec, err := session.Pin(rec)
		return rec, tree, err
	}
	rec.Head, rec.Base = tree.Head, tree.Head
	upstreamAtStart(ctx, cfg.Root, rec)
	if how != session.PinnedAtStart {
		if b, err := snap.Base(ctx); err == nil && b.MergeBase != "" {
			rec.Base = b.MergeBase
		}
	}
	if rec.ConfigPath, rec.Config, err = configAtBase(ctx, snap, rec.Base, cfg.Path); err != nil {
		return nil, nil, fmt.Errorf("pin the session's base: %w", err)
	}
	rec, err = session.Pin(rec)
	return rec, tree, err
}

// configAtBase is the config file at base, by the name it has now or either usual name; none
// when base has none.
func configAtBase(ctx context.Context, snap *snapshot.Snapshot, base, path string) (name string, data []byte, err error) {
	for _, name := range []string{filepath.Base(path), config.FileName, config.AltFileName} {
		data, found, err := snap.FileAt(ctx, base, name, config.MaxFileBytes)
		if err != nil || found {
			return name, data, err
		}
	}
	return "", nil, nil
}

// inputs adds to what decides a verdict besides the tree the session's base and the environment
// it is judged in: a verdict about another base or environment never answers this stop.
func (j judging) inputs(b []byte, environ []string) []byte {
	// Whether the base may excuse a failure as pre-existing decides the verdict too.
	b = append(b, "session base\x00"+j.base+"\x00pinned at the start\x00"+strconv.FormatBool(j.atStart)+"\x00environment\x00"...)
	steering := j.steering
	if steering == nil {
		steering = envid.Steering(environ, j.root())
	}
	b = append(b, envid.Local(steering)+"\x00changed since the start\x00"...)
	return append(b, strings.Join(j.envChanged, "\x00")+"\x00"...)
}

// allFindings are the session's findings: the base's config altered, then the environment
// changed since the session's start.
func (j judging) allFindings() []gates.IntegrityFinding {
	out := slices.Clone(j.findings)
	if len(j.envChanged) > 0 {
		level := j.cfg.Integrity.Level(gates.RuleEnvChanged, true)
		if level != gates.IntegrityOff {
			out = append(out, gates.IntegrityFinding{Rule: gates.RuleEnvChanged, Level: level,
				Message: "what steers the tools differs from the session's start (" + strings.Join(j.envChanged, ", ") +
					"): the gates would judge in another environment than the one the session runs in"})
		}
	}
	return out
}

// stoppedBefore says whether the project's history has a stop of the session (key is host/id):
// a session pinned only now had its record removed since.
func stoppedBefore(root, key string) bool {
	host, id, ok := strings.Cut(key, "/")
	if !ok {
		return false
	}
	sd, err := state.Open(root)
	if err != nil {
		return false
	}
	defer sd.Close()
	_, found := lastDecision(sd, host, historyID(id))
	return found
}

// startEnvironment is the environment the session started in, as the record keeps it; nil (not
// known, so nothing is compared) when an older gauntlet made the record in another form: a
// gauntlet upgraded during a session must not call its own new keys a changed environment. The
// record is sealed: the agent cannot make its form older.
func startEnvironment(rec *session.Record) map[string]string {
	if rec.EnvFormat != envid.Format {
		return nil
	}
	return rec.Env
}

// root is the project root of the config that judges, whose files steer its tools too; "" when
// there is none.
func (j judging) root() string {
	if j.cfg == nil {
		return ""
	}
	return j.cfg.Root
}
