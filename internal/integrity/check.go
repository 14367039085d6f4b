package integrity

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// Options say what to judge and how strictly.
type Options struct {
	Root string // the project root
	Base string // the base ref; "" means auto
	// Snapshot is the run's reading of the repository, shared with the rest of the run; nil
	// makes one for Root and Base.
	Snapshot *snapshot.Snapshot
	// Hook is set in the stop hook, where the default level is block; in `run` it is warn.
	Hook bool
	// Policy is the config's `integrity` setting as loaded (it may be the change's own).
	Policy gates.IntegrityPolicy
	Inputs Inputs
}

// Result is what one check found.
type Result struct {
	// Findings are the findings at block or warn, each with its level.
	Findings []gates.IntegrityFinding
	// Skipped says why nothing was judged ("" when the change was judged).
	Skipped string
	// Truncated says the change was too large to read whole.
	Truncated bool
	// NotGit says the project is in no git work tree (Skipped says so too).
	NotGit bool
}

// Check reads the change from git and judges it. A project outside git, or without a commit to
// compare with, is not judged (Skipped says so); only a git failure is an error.
func Check(ctx context.Context, o Options) (Result, error) {
	snap := o.Snapshot
	if snap == nil {
		snap = snapshot.New(o.Root, snapshot.Options{Base: o.Base})
	}
	from, skipped, err := judgedBase(ctx, snap)
	if skipped != "" || err != nil {
		return Result{Skipped: skipped, NotGit: skipped == notGit}, err
	}
	basePolicy, err := acceptedPolicy(ctx, snap, from, cmpOr(o.Inputs.ConfigFile, ".gauntlet.yml"))
	if err != nil {
		return Result{}, err
	}
	if off(o.Policy) && off(basePolicy) {
		return Result{Skipped: "integrity: off"}, nil
	}
	ch, err := ReadSnapshot(ctx, snap)
	switch {
	case errors.Is(err, ErrNoBase):
		return Result{Skipped: err.Error()}, nil
	case err != nil:
		return Result{}, err
	}
	found := Detect(ch, o.Inputs)
	hidden, err := hiddenChanges(ctx, snap)
	if err != nil {
		return Result{}, err
	}
	found = append(found, hidden...)
	shadows, err := shadowingFiles(ctx, snap, o.Inputs.Commands)
	if err != nil {
		return Result{}, err
	}
	found = append(found, shadows...)
	return Result{Findings: Apply(found, basePolicy, o.Policy, o.Hook), Truncated: ch.Truncated}, nil
}

// notGit is why a project outside git is not judged.
const notGit = "not in a git work tree"

// judgedBase is the commit the change is judged against, or why there is none to judge it
// against (outside git, no commit to compare with); only a git failure is an error.
func judgedBase(ctx context.Context, snap *snapshot.Snapshot) (from, skipped string, err error) {
	from, against, hasBase, err := snap.DiffBase(ctx)
	switch {
	case errors.Is(err, snapshot.ErrNotGit):
		return "", notGit, nil
	case err != nil:
		return "", "", err
	case !hasBase:
		return "", "nothing to judge the change against: " + against, nil
	}
	return from, "", nil
}

// acceptedPolicy is the integrity policy the change is judged by: the base's (the defaults when
// the base has no config, or one that does not parse), since the current one may be the
// change's own doing. A config the change does not touch is read from the work tree, which
// saves asking git.
func acceptedPolicy(ctx context.Context, snap *snapshot.Snapshot, from, configFile string) (gates.IntegrityPolicy, error) {
	changed, err := snap.ChangedFiles(ctx)
	if err != nil {
		return gates.IntegrityPolicy{}, err
	}
	base := &GitChange{root: snap.Root(), from: from}
	read := base.Old
	if !slices.Contains(changed.Files, configFile) {
		read = base.New
	}
	data, ok := read(configFile)
	if !ok {
		return gates.IntegrityPolicy{}, nil
	}
	tree, err := parse(formatYAML, data)
	if err != nil {
		return gates.IntegrityPolicy{}, nil // a base config that does not parse sets no policy
	}
	return PolicyOf(tree["integrity"]), nil
}

// off says whether the policy turns every rule off in both contexts, so that nothing is read.
func off(p gates.IntegrityPolicy) bool {
	for _, r := range gates.IntegrityRules {
		if p.Level(r, true) != gates.IntegrityOff || p.Level(r, false) != gates.IntegrityOff {
			return false
		}
	}
	return true
}

// Apply gives each finding its level and drops those at off. The level is the stricter of the
// accepted policy (the base's config) and the current one: a change cannot lower the bar it is
// judged by, and the lowering is itself a finding (integrity-relaxed).
func Apply(found []gates.IntegrityFinding, base, current gates.IntegrityPolicy, hook bool) []gates.IntegrityFinding {
	out := make([]gates.IntegrityFinding, 0, len(found))
	for _, f := range found {
		level := current.Level(f.Rule, hook)
		if b := base.Level(f.Rule, hook); b.Strength() > level.Strength() {
			level = b
		}
		if level == gates.IntegrityOff {
			continue
		}
		f.Level = level
		out = append(out, f)
	}
	return out
}

// Keep says which files' lines the detectors read, so that the lines of other files (images,
// data, documentation) are not held in memory.
func Keep(p string) bool {
	if langOf(p) != langNone {
		return true
	}
	base := path.Base(p)
	_, structured := formatOf(p)
	return structured || strings.HasPrefix(base, "eslint.config.") || base == ".eslintignore" || runsCommands(p)
}

// AcceptedBase is the base ref the accepted config names: the config as it is at the merge-base
// with the automatic base (origin/HEAD, main, master). A change that points `base:` at its own
// branch and commits would otherwise be judged against itself and show nothing; integrity is
// judged against the base a person accepted. ok is false when there is no such config to read.
func AcceptedBase(ctx context.Context, root, configFile string) (ref string, ok bool) {
	snap := snapshot.New(root, snapshot.Options{})
	from, _, hasBase, err := snap.DiffBase(ctx)
	if err != nil || !hasBase {
		return "", false
	}
	data, found := (&GitChange{root: root, from: from}).Old(cmpOr(configFile, ".gauntlet.yml"))
	if !found {
		return "", false
	}
	tree, err := parse(formatYAML, data)
	if err != nil {
		return "", false
	}
	base, _ := tree["base"].(string)
	if base == "auto" {
		base = ""
	}
	return base, true
}
