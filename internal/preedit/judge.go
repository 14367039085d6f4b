package preedit

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/hosts"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// maxFileBytes bounds the file an edit is applied to: past it the guard lets the edit through
// (the stop judges it) rather than hold a huge file in memory.
const maxFileBytes = 8 << 20

// Verdict is what the guard decides about one call.
type Verdict struct {
	// Findings are the rules the call breaks at the block level; none lets it through.
	Findings []gates.IntegrityFinding
	// Mode is stop_hook.pre_edit: deny or warn (off finds nothing).
	Mode string
	// Shell says the call is a shell command rather than an edit.
	Shell bool
}

// Options say where the call runs.
type Options struct {
	Call Call
	// Host is the host that sent the call: its session's pinned base is kept under its name.
	Host hosts.Name
	// Dir is where the search for the config starts when the payload names no cwd.
	Dir string
}

// Judge decides about one call. It reads nothing for a call that edits no file a rule reads, and
// asks git only when the edit alone, in memory, already breaks a rule: then the whole change
// against the session's base (HEAD without one) decides, as the stop would judge it once the
// edit lands. ctx bounds everything it does.
func Judge(ctx context.Context, o Options) (Verdict, error) {
	c := o.Call
	dir := c.Dir
	if dir == "" {
		dir = o.Dir
	}
	if c.Session != "" {
		c.Session = stophook.SessionKey(o.Host, c.Session)
	}
	switch c.Kind {
	case Shell:
		return judgeCommand(dir, c.Command)
	case Write, Edit:
		return judgeEdit(ctx, dir, c)
	case Patch:
		return judgePatch(ctx, dir, c)
	}
	return Verdict{}, nil
}

// judgePatch judges each file a patch touches as its own edit; the patch is refused for any of
// them, with every file's findings.
func judgePatch(ctx context.Context, dir string, c Call) (Verdict, error) {
	var all Verdict
	for _, fc := range c.PatchCalls() {
		v, err := judgeEdit(ctx, dir, fc)
		if err != nil {
			return Verdict{}, err
		}
		if len(v.Findings) > 0 {
			all.Findings, all.Mode = append(all.Findings, v.Findings...), v.Mode
		}
	}
	return all, nil
}

// judgeCommand judges a shell command: the rules read the command line alone, no file.
func judgeCommand(dir, command string) (Verdict, error) {
	found := integrity.DetectCommand(command)
	if len(found) == 0 {
		return Verdict{}, nil
	}
	p, ok := loadProject(dir)
	if !ok {
		return Verdict{}, nil
	}
	return p.verdict(found, true), nil
}

// judgeEdit judges a file written or edited.
func judgeEdit(ctx context.Context, dir string, c Call) (Verdict, error) {
	root, configPath, ok := findRoot(dir)
	if !ok {
		return Verdict{}, nil
	}
	rel, ok := relative(root, dir, c.Path)
	if !ok || !integrity.Keep(rel) {
		return Verdict{}, nil // decided by the path alone: no rule reads this file
	}
	current, exists, err := readCurrent(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return Verdict{}, nil // unreadable or too large here: the stop judges it
	}
	next, ok := c.Apply(current, exists)
	if !ok {
		return Verdict{}, nil
	}
	configFile := filepath.ToSlash(mustRel(root, configPath))
	in := integrity.Inputs{ConfigFile: configFile}
	var p *project
	if integrity.ReadsGateCommands(rel) {
		if p, ok = loadProject(dir); ok {
			in.Commands = p.commands
		}
	}
	found := integrity.Detect(integrity.OneFile(rel, current, exists, next), in)
	if len(found) == 0 {
		return Verdict{}, nil
	}
	if p == nil {
		if p, ok = loadProject(dir); !ok {
			return Verdict{}, nil
		}
	}
	if p.mode == config.PreEditOff {
		return Verdict{}, nil
	}
	found, err = p.againstBase(ctx, c.Session, rel, next, in, found)
	if err != nil {
		return Verdict{}, err
	}
	return p.verdict(found, false), nil
}

// findRoot is the project root (the config's directory) above dir; ok is false outside a
// gauntlet project, where the guard has nothing to guard.
func findRoot(dir string) (root, configPath string, ok bool) {
	path, err := config.Find(dir)
	if err != nil {
		return "", "", false
	}
	return filepath.Dir(path), path, true
}

// relative is the edited file's path relative to root, slash-separated; ok is false outside it.
func relative(root, dir, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func mustRel(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return config.FileName
	}
	return rel
}

// readCurrent is the file's content now; exists is false when there is none.
func readCurrent(path string) (data []byte, exists bool, err error) {
	data, err = safefile.ReadFile(path, maxFileBytes, time.Now().Add(2*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// project is what a judged call needs of the project's config.
type project struct {
	root   string
	mode   string
	policy gates.IntegrityPolicy
	// basePolicy is the integrity policy of the config at the session's base: the change cannot
	// lower the bar it is judged by (the current one's until the session's record is read).
	basePolicy gates.IntegrityPolicy
	commands   []string
}

// loadProject loads the config above dir, .gauntlet.yml alone: a personal .gauntlet.local.yml
// must not turn the guard down. One that does not load judges with the defaults (the guard on,
// every rule at its level in the stop hook): a broken config must not turn it off.
func loadProject(dir string) (*project, bool) {
	root, _, ok := findRoot(dir)
	if !ok {
		return nil, false
	}
	p := &project{root: root, mode: config.PreEditDeny}
	cfg, err := config.Load(config.Options{Dir: dir, NoLocal: true})
	if err != nil {
		return p, true
	}
	p.root, p.mode, p.policy, p.basePolicy = cfg.Root, cfg.StopHook.PreEdit, cfg.Integrity, cfg.Integrity
	for _, g := range cfg.Gates {
		p.commands = append(p.commands, g.Command())
	}
	return p, true
}

// againstBase keeps of found (the edit's own findings) those the stop would also report once the
// edit lands: the whole change from the session's base with the file as the edit leaves it. A
// test removed that the session itself added, or moved to a file the session wrote, is then no
// finding. Outside git, or with no commit to judge against, the edit's own findings stand.
func (p *project) againstBase(ctx context.Context, sessionKey, rel string, next []byte, in integrity.Inputs, found []gates.IntegrityFinding) ([]gates.IntegrityFinding, error) {
	base := "HEAD"
	if sessionKey != "" {
		if rec, err := session.Find(p.root, sessionKey); err == nil && rec != nil && rec.Base != "" {
			base = rec.Base
			if len(rec.Config) > 0 {
				p.basePolicy = integrity.PolicyOfConfig(rec.Config)
			}
		}
	}
	ch, err := integrity.ReadSnapshot(ctx, snapshot.New(p.root, snapshot.Options{Pinned: base}))
	switch {
	case errors.Is(err, snapshot.ErrNotGit), errors.Is(err, integrity.ErrNoBase):
		return found, nil
	case err != nil:
		return nil, err
	}
	old, had := ch.Old(rel)
	var kept []gates.IntegrityFinding
	for _, f := range integrity.Detect(integrity.WithFile(ch, rel, old, had, next), in) {
		if f.File == rel {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// verdict gives the findings their levels by the project's policy, in the stop hook's context,
// and keeps those that block.
func (p *project) verdict(found []gates.IntegrityFinding, shell bool) Verdict {
	if p.mode == config.PreEditOff {
		return Verdict{}
	}
	var block []gates.IntegrityFinding
	for _, f := range integrity.Apply(found, p.basePolicy, p.policy, true) {
		if f.Level == gates.IntegrityBlock {
			block = append(block, f)
		}
	}
	if len(block) == 0 {
		return Verdict{}
	}
	return Verdict{Findings: block, Mode: p.mode, Shell: shell}
}
