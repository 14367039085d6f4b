package engine

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// checkIntegrity judges the change for weakened gates. One shard of a split judges it (the
// first), so that merged reports do not count it N times.
func checkIntegrity(ctx context.Context, req Request, snap *snapshot.Snapshot) (integrity.Result, error) {
	cfg := req.Config
	if req.Scope.Shard.N > 1 && req.Scope.Shard.K != 1 {
		return integrity.Result{Skipped: "judged by shard 1"}, nil
	}
	configFile := ConfigFile(cfg)
	commands := make([]string, 0, len(cfg.Gates))
	var prompts []string
	for _, g := range cfg.Gates {
		commands = append(commands, g.Command())
		if g.Review != nil && g.Review.PromptFile != "" {
			prompts = append(prompts, filepath.ToSlash(filepath.Clean(g.Review.PromptFile)))
		}
	}
	base, snap := integrityBase(ctx, req, snap, configFile)
	res, err := integrity.Check(ctx, integrity.Options{
		Root:     cfg.Root,
		Snapshot: snap,
		Base:     base,
		Hook:     req.StopHook,
		Policy:   cfg.Integrity,
		Inputs:   integrity.Inputs{ConfigFile: configFile, Commands: commands, PromptFiles: prompts},
	})
	if finding, ok := unmeasured(req, res, err); ok && ctx.Err() == nil {
		return integrity.Result{Findings: []gates.IntegrityFinding{finding}}, nil
	}
	if err != nil {
		return integrity.Result{Skipped: "could not be judged: " + termtext.Line(err.Error())}, fmt.Errorf("integrity: %w", err)
	}
	if res.Truncated {
		res.Skipped = "the change is larger than gauntlet reads: only part of it was judged"
	}
	return res, nil
}

// unmeasured is the finding for a stop whose change git cannot read, in a session pinned to a
// commit: git could read the repository when the session started, so what broke it since (an
// index overwritten, .git moved away) is within the agent's reach, and skipping the checks would
// let a deleted test through. The stop counts as an attempt instead. `run`, with no session, only
// mentions a git failure, as before. A stop out of time is judged by its deadline instead.
func unmeasured(req Request, res integrity.Result, err error) (gates.IntegrityFinding, bool) {
	if !req.StopHook || req.Scope.Pinned == "" || err == nil && !res.NotGit {
		return gates.IntegrityFinding{}, false
	}
	why := res.Skipped
	if err != nil {
		why = termtext.Line(err.Error())
	}
	return gates.IntegrityFinding{Rule: gates.RuleGateAltered, File: ".git", Level: gates.IntegrityBlock,
		Message: "git cannot read the repository, which it could when the session started (" + why +
			"): the change cannot be measured against the session's base; restore the repository so that `git status` works, then stop again"}, true
}

// integrityBase is the base the change's integrity is judged against, and the reading of the
// repository against it. The config's own base may be the change's doing (a base that is HEAD
// itself sees no committed work): then the accepted one judges.
func integrityBase(ctx context.Context, req Request, snap *snapshot.Snapshot, configFile string) (string, *snapshot.Snapshot) {
	cfg := req.Config
	base := cmp.Or(req.Scope.Base, cfg.Base)
	if req.Scope.Base != "" || req.Scope.Pinned != "" || cfg.Base == "" || !judgedAgainstItself(ctx, snap) {
		return base, snap
	}
	if accepted, ok := integrity.AcceptedBase(ctx, cfg.Root, configFile); ok && accepted != cfg.Base {
		return accepted, snapshot.New(cfg.Root, snapshot.Options{Base: accepted, PatchBytes: snapshot.DefaultPatchBytes})
	}
	return base, snap
}

// sanitizeIntegrity redacts secrets from the messages, which quote config values and lines.
func sanitizeIntegrity(fs []gates.IntegrityFinding, secrets *redact.Redactor) []gates.IntegrityFinding {
	for i := range fs {
		fs[i].Message = secrets.Redact(fs[i].Message)
	}
	return fs
}

// judgedAgainstItself says whether the change is measured from HEAD itself, which hides every
// commit: the snapshot has read both already, so asking costs nothing.
func judgedAgainstItself(ctx context.Context, snap *snapshot.Snapshot) bool {
	tree, err := snap.Tree(ctx)
	if err != nil {
		return false
	}
	base, err := snap.Base(ctx)
	return err == nil && base.MergeBase != "" && base.MergeBase == tree.Head
}

// ConfigFile is the config's path relative to the project root, as findings name it.
func ConfigFile(cfg *config.Config) string {
	if rel, err := filepath.Rel(cfg.Root, cfg.Path); err == nil && cfg.Path != "" {
		return filepath.ToSlash(rel)
	}
	return config.FileName
}

// withSessionFindings puts the findings about a config chosen from the session's base first, in
// place of integrity's own about the config file's gates and settings.
func withSessionFindings(found []gates.IntegrityFinding, req Request) []gates.IntegrityFinding {
	rest := found
	if req.BaseJudged {
		file := ConfigFile(req.Config)
		rest = slices.DeleteFunc(slices.Clone(found), func(f gates.IntegrityFinding) bool {
			return f.File == file && (f.Rule == gates.RuleGateRelaxed || f.Rule == gates.RuleIntegrityRelaxed)
		})
	}
	return slices.Concat(req.SessionFindings, rest)
}

// outweighed are the shape rules the measures outweigh: those that count assertions in the diff
// (a loop over a table holds fewer assertion calls than the tests it replaced), a test function
// removed (the census follows it to its new name or table) and a Go test file removed (the
// census excuses its tests when its code went with it): they guess.
var outweighed = map[string]bool{gates.RuleAssertionsDropped: true, gates.RuleTestRemoved: true, gates.RuleTestFileRemoved: true}

// measuredOutweighShapes lowers the blocks of the guessing shape rules on a test file to notices
// when the measures outweigh them: a gate whose census holds that file's tests (vouching: the
// gates whose census and coverage were both compared with the base's, and their census now)
// measured it, and no test and no covered line was found lost, at any level. Without coverage
// (a plain go test gate), the base's tests run against the change's code with every one that
// passed at the base passing again (baseTests, from expectation-changed) vouch for a gate the
// same way for the rules that count assertions: what a dropped assertion could hide, the base's
// version of it would have caught. The one place where shape findings and measures meet, for
// `run` and the stop alike.
func measuredOutweighShapes(shapes, lost []gates.IntegrityFinding, vouching, baseTests map[string]census.Census) []gates.IntegrityFinding {
	if len(vouching)+len(baseTests) == 0 || slices.ContainsFunc(lost, func(f gates.IntegrityFinding) bool {
		return f.Rule == gates.RuleTestsLost || f.Rule == gates.RuleCoverageLost
	}) {
		return shapes
	}
	out := slices.Clone(shapes)
	for i, f := range out {
		if !outweighed[f.Rule] || f.Level != gates.IntegrityBlock {
			continue
		}
		if by := measuredBy(vouching, f.File); by != "" {
			out[i].Level = gates.IntegrityWarn
			out[i].Message += " (a notice: the test census and coverage of " + by + " found no test and no covered line lost)"
		} else if by := measuredBy(baseTests, f.File); by != "" && f.Rule == gates.RuleAssertionsDropped {
			out[i].Level = gates.IntegrityWarn
			out[i].Message += " (a notice: the test census of " + by + " found no test lost, and the base's tests pass against the change's code)"
		}
	}
	return out
}

// measuredBy names the gates whose census holds the tests of a test file: by their file, or for
// Go (whose census names no file) by the package's directory the import path ends with.
func measuredBy(vouching map[string]census.Census, file string) string {
	var names []string
	for name, c := range vouching {
		if slices.ContainsFunc(c.Tests, func(t census.Test) bool { return holds(t, file) }) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func holds(t census.Test, file string) bool {
	if t.File != "" || !strings.HasSuffix(file, ".go") {
		return t.File == file || t.Suite == file
	}
	dir := path.Dir(file)
	return dir == "." || t.Suite == dir || strings.HasSuffix(t.Suite, "/"+dir)
}
