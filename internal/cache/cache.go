// Package cache answers a gate's pass without running it while nothing that decides the result
// has changed: the gate's definition, gauntlet's version and the content of the gate's inputs.
// Only passes are stored; the engine asks before scheduling a gate and records passes after.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"slices"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
)

// ToolVersion is gauntlet's own version (and commit), part of every key: another gauntlet may
// judge differently. The command sets it at start-up.
var ToolVersion = "dev"

// File is where the cache lives, relative to the state dir; `gauntlet clean` removes its folder.
const File = "cache/gates.json"

// The cache keeps at most MaxEntries passes and MaxBytes on disk; the oldest go first.
const (
	MaxEntries = 1000
	MaxBytes   = 1 << 20
)

// keyVersion changes whenever what goes into a key changes.
const keyVersion = "gauntlet-cache-3"

// Entry is one remembered pass.
type Entry struct {
	Gate string    `json:"gate"`
	Run  string    `json:"run"`
	At   time.Time `json:"at"`
}

type file struct {
	Version int               `json:"version"`
	Entries map[string]*Entry `json:"entries"`
	// MAC seals the rest with the user's key (internal/seal): a pass written by hand, or copied
	// from another project, answers nothing.
	MAC string `json:"mac,omitempty"`
}

func (f *file) SealField() *string { return &f.MAC }

// sealPurpose names the cache among the sealed files.
const sealPurpose = "gate cache"

// Store is the cache of one state dir, read once and saved once per run; the caller holds the
// run lock in between.
type Store struct {
	sd    *state.Dir
	name  string // the file, relative to sd
	f     file
	dirty bool
	// shared is set for the cache of a repository's common git directory, which the worktrees'
	// runs write at once: Save then merges what this run changed into what is on disk.
	shared  *sharedDir
	put     map[string]*Entry
	deleted map[string]bool
}

// Open reads the cache. A missing, oversized or corrupt file is an empty cache: forgetting a
// pass only costs a rerun. So is one whose seal does not verify (or any, without a key): a pass
// gauntlet did not write is no pass.
func Open(sd *state.Dir) (*Store, error) {
	return open(sd, File)
}

func open(sd *state.Dir, name string) (*Store, error) {
	s := &Store{sd: sd, name: name, put: map[string]*Entry{}, deleted: map[string]bool{}}
	f, err := s.read()
	s.f = f
	return s, err
}

// read loads the file; a missing, oversized or corrupt one is an empty cache.
func (s *Store) read() (file, error) {
	empty := file{Version: 1, Entries: map[string]*Entry{}}
	data, err := s.sd.ReadFileLimit(s.name, MaxBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, safefile.ErrTooLarge):
		return empty, nil
	case err != nil:
		return empty, fmt.Errorf("read the gate cache: %w", err)
	}
	var f file
	key, _ := seal.Load()
	if json.Unmarshal(data, &f) == nil && f.Version == 1 && f.Entries != nil && key.VerifyJSON(sealPurpose, s.project(), &f) {
		return f, nil
	}
	return empty, nil
}

// Lookup returns the pass stored under key.
func (s *Store) Lookup(key string) (Entry, bool) {
	e := s.f.Entries[key]
	if e == nil {
		return Entry{}, false
	}
	return *e, true
}

// Put remembers a pass.
func (s *Store) Put(key string, e Entry) {
	s.f.Entries[key] = &e
	s.put[key] = &e
	delete(s.deleted, key)
	s.dirty = true
}

// Delete forgets the pass stored under key, if any.
func (s *Store) Delete(key string) {
	if _, ok := s.f.Entries[key]; ok {
		delete(s.f.Entries, key)
		s.dirty = true
	}
	// Another worktree may have stored it since this run read the file.
	delete(s.put, key)
	s.deleted[key] = true
	s.dirty = s.dirty || s.shared != nil
}

// Save writes the cache back when it changed, pruned to its bounds oldest first.
func (s *Store) Save() error {
	if !s.dirty {
		return nil
	}
	if s.shared != nil {
		unlock, err := s.shared.lock()
		if err != nil {
			return err
		}
		defer unlock()
		s.merge()
	}
	s.prune(len(s.f.Entries) - MaxEntries)
	data, err := s.sealed()
	for err == nil && len(data) >= MaxBytes && len(s.f.Entries) > 0 {
		s.prune((len(s.f.Entries) + 1) / 2)
		data, err = s.sealed()
	}
	if err != nil {
		return fmt.Errorf("encode the gate cache: %w", err)
	}
	if err := s.sd.WriteFileAtomic(s.name, data); err != nil {
		return fmt.Errorf("write the gate cache: %w", err)
	}
	s.dirty = false
	return nil
}

// sealed encodes the cache with its seal (none without a key: then nothing reads it back).
func (s *Store) sealed() ([]byte, error) {
	key, _ := seal.Load()
	if err := key.SealJSON(sealPurpose, s.project(), &s.f); err != nil {
		return nil, err
	}
	return json.Marshal(s.f)
}

// project binds the seal to the file: a cache copied from another project, or from another
// project's file in the shared directory, verifies for none.
func (s *Store) project() string { return s.sd.Path() + "/" + s.name }

// prune forgets the n oldest passes.
func (s *Store) prune(n int) {
	if n <= 0 {
		return
	}
	keys := make([]string, 0, len(s.f.Entries))
	for k := range s.f.Entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return s.f.Entries[a].At.Compare(s.f.Entries[b].At) })
	for _, k := range keys[:min(n, len(keys))] {
		delete(s.f.Entries, k)
	}
}

// Context is what a key needs besides the gate.
type Context struct {
	Tree *snapshot.Tree
	// Session is the agent's session id; "" outside the stop hook, where no gate that depends on
	// the session is ever answered from the cache.
	Session string
	// SessionInputs is what else of the session decides a todos gate (its todo list).
	SessionInputs []byte
	// Base is the ref a review gate diffs against.
	Base string
	// MergeBase gives the commit a review or new_only gate's change is measured from; called
	// only for such gates (it costs git calls), and nil means unknown.
	MergeBase func() string
	// Worktree is the absolute project root. It is part of a setup step's key: what a step leaves
	// behind (installed dependencies, generated files) stays in the worktree it ran in, and the
	// cache is shared by every worktree of the repository.
	Worktree string
	// Env is the base environment of the gates (before their own env): where their programs are
	// looked up.
	Env []string
	// Environment is the identity of what steers the tools in Env, as every machine computes it
	// (envid.Portable): part of every key.
	Environment string
	// Tools names the gates' programs and toolchains, once per run; nil makes one per key.
	Tools *toolid.Resolver
}

// LocalKey is the key a pass is kept under on one machine: key, reached in the environment whose
// identity is env (envid.Local, PATH included). The remote cache, shared between machines, is
// keyed by key alone, and believed only for its writer's signature.
func LocalKey(key, env string) string {
	sum := sha256.Sum256([]byte(key + "\x00local environment\x00" + env))
	return hex.EncodeToString(sum[:])
}

// Key returns the cache key of a gate in this state; ok is false when the gate may not be
// answered from the cache here at all.
func Key(ctx context.Context, g gates.Gate, c Context) (key string, ok bool, err error) {
	if !g.Cache || c.Tree == nil || g.SessionDependent() && c.Session == "" {
		return "", false, nil
	}
	sum := sha256.New()
	snapshot.Field(sum, "version", []byte(keyVersion))
	snapshot.Field(sum, "gauntlet", []byte(ToolVersion))
	d := definition(g)
	if g.Setup {
		d.Setup, d.Worktree = true, c.Worktree
	}
	def, err := json.Marshal(d)
	if err != nil {
		return "", false, fmt.Errorf("cache key of %s: %w", g.Name, err)
	}
	snapshot.Field(sum, "gate", def)
	if g.SessionDependent() {
		snapshot.Field(sum, "session", []byte(c.Session))
		snapshot.Field(sum, "session-inputs", c.SessionInputs)
	}
	if g.Kind == gates.KindReview || g.NewOnly {
		// A review reads the diff against the base, and new_only excuses findings by it: HEAD,
		// the base ref and the commit it resolves to decide that diff (a fetch that moves the
		// base changes it without touching the tree).
		snapshot.Field(sum, "head", []byte(c.Tree.Head))
		snapshot.Field(sum, "base", []byte(c.Base))
		if c.MergeBase != nil {
			snapshot.Field(sum, "merge-base", []byte(c.MergeBase()))
		}
	}
	// The same inputs judged by another program (another grep first on PATH, an upgraded go)
	// are another question.
	tools := c.Tools
	if tools == nil {
		tools = toolid.New()
	}
	id, err := tools.Identity(ctx, g, c.Tree.Root, c.Env)
	if err != nil {
		return "", false, fmt.Errorf("cache key of %s: %w", g.Name, err)
	}
	snapshot.Field(sum, "tools", []byte(id))
	// What steers the tools (GOFLAGS, a go env -w setting, NODE_OPTIONS...) changes what they check.
	snapshot.Field(sum, "environment", []byte(c.Environment))
	if err := inputsDigest(ctx, sum, g, c.Tree); err != nil {
		return "", false, fmt.Errorf("cache key of %s: %w", g.Name, err)
	}
	return fmt.Sprintf("%x", sum.Sum(nil)), true, nil
}

// gateDefinition is everything of a gate that decides its result; the timeout is not in it (a
// pass within one timeout is a pass), nor the hint or name.
type gateDefinition struct {
	Kind           gates.Kind
	Run            string
	Argv           []string
	Shell          string `json:",omitempty"` // omitted when unset, so that older keys still match
	Dir            string
	Env            []string
	Severity       gates.Severity
	InfraExitCodes []int
	InfraPatterns  []string
	Inputs         []string
	Paths          []string
	Exclude        []string
	Session        bool
	Review         *gates.Review
	// new_only turns a failure with only pre-existing findings into a pass, and the format
	// decides which findings there are.
	NewOnly bool
	Format  []string
	// Setup and Worktree are set for setup steps only (omitted, gates' keys stay as they were).
	Setup    bool   `json:",omitempty"`
	Worktree string `json:",omitempty"`
	// Files are the files a {files} gate runs on: a pass is a pass for that set of files only.
	Files []string `json:",omitempty"`
	Glob  []string `json:",omitempty"`
}

func definition(g gates.Gate) gateDefinition {
	d := gateDefinition{
		Kind: g.Kind, Run: g.Run, Argv: g.Argv, Shell: g.Shell, Dir: g.Dir, Env: g.Env, Severity: g.Severity,
		InfraExitCodes: g.InfraExitCodes, Inputs: g.Inputs, Paths: g.Paths, Exclude: g.Exclude,
		Session: g.Session, Review: g.Review, NewOnly: g.NewOnly, Format: g.Format, Files: g.Files, Glob: g.Glob,
	}
	for _, re := range g.InfraPatterns {
		d.InfraPatterns = append(d.InfraPatterns, re.String())
	}
	return d
}

// inputsDigest hashes the gate's input files: unchanged tracked files by git's object id; files
// that differ from the index, untracked files, files git is told not to look at and ignored files
// that the gate's inputs name by their content; and what symlinks among them lead to, file by
// file. Each file is hashed once per run, whichever gates read it.
func inputsDigest(ctx context.Context, sum hash.Hash, g gates.Gate, tree *snapshot.Tree) error {
	index, err := tree.Index(ctx)
	if err != nil {
		return err
	}
	d := &inputDigest{ctx: ctx, sum: sum, tree: tree}
	d.patterns, d.exclude = inputPatterns(g)
	if len(index) > 0 {
		d.like = index[0].OID
	}
	for _, ie := range index {
		e, listed := tree.Lookup(ie.Path)
		if err := d.file(ie.Path, listed && e.Worktree || ie.Hidden, ie.Mode, ie.OID); err != nil {
			return err
		}
	}
	for _, e := range tree.Entries {
		if !e.Untracked {
			continue
		}
		if err := d.file(e.Path, true, "", ""); err != nil {
			return err
		}
	}
	// Files git ignores are read only when the gate names its inputs: a gate reading a
	// gitignored file it does not name could not be keyed without hashing every build output.
	ignored, err := tree.Ignored(ctx, g.Inputs)
	if err != nil {
		return err
	}
	for _, path := range ignored {
		if err := d.file(path, true, "", ""); err != nil {
			return err
		}
	}
	d.field("count", binary.BigEndian.AppendUint64(nil, d.n))
	return nil
}

// inputPatterns are the globs of the files a gate reads: its inputs, else its paths (less its
// exclude), with a review's prompt file; none means the whole tree.
func inputPatterns(g gates.Gate) (patterns, exclude []string) {
	patterns = g.Inputs
	if len(patterns) == 0 {
		patterns, exclude = g.Paths, g.Exclude
	}
	if g.Kind == gates.KindReview && g.Review != nil && g.Review.PromptFile != "" && len(patterns) > 0 {
		patterns = append(slices.Clip(patterns), g.Review.PromptFile)
	}
	return patterns, exclude
}

// inputDigest hashes a gate's input files into sum, counting them.
type inputDigest struct {
	ctx               context.Context
	sum               hash.Hash
	tree              *snapshot.Tree
	patterns, exclude []string
	like              string // an object id of the index, for the length of the ids to make
	n                 uint64
}

func (d *inputDigest) field(label string, data []byte) { snapshot.Field(d.sum, label, data) }

// wanted says whether the gate reads path.
func (d *inputDigest) wanted(path string) bool {
	if len(d.patterns) == 0 {
		return true
	}
	for _, p := range d.exclude {
		if ok, _ := doublestar.Match(p, path); ok {
			return false
		}
	}
	for _, p := range d.patterns {
		if ok, _ := doublestar.Match(p, path); ok {
			return true
		}
	}
	return false
}

// behind hashes the files a symlink at path leads to that the gate reads: git stores the link,
// never what is behind it.
func (d *inputDigest) behind(path string) error {
	files, err := d.tree.Behind(d.ctx, path)
	if err != nil {
		return err
	}
	for _, f := range files {
		if d.wanted(f.Path) {
			d.n++
			d.field("behind", []byte(f.Path))
			d.field("content", f.Digest)
		}
	}
	return nil
}

// file hashes one file the gate reads: by git's object id when the index has it as it is, else
// by its content (worktree: it differs from the index, or git has no id for it).
func (d *inputDigest) file(path string, worktree bool, mode, oid string) error {
	if mode == "120000" || worktree {
		if err := d.behind(path); err != nil {
			return err
		}
	}
	if !d.wanted(path) {
		return nil
	}
	d.n++
	d.field("path", []byte(path))
	if worktree {
		// Named like git would name it once added, so that committing a file as it is does
		// not look like a change.
		m, o, ok, err := d.tree.BlobID(d.ctx, path, d.like)
		if err != nil {
			return err
		}
		if !ok {
			digest, err := d.tree.FileDigest(d.ctx, path)
			if err != nil {
				return err
			}
			d.field("content", digest)
			return nil
		}
		mode, oid = m, o
	}
	d.field("object", []byte(mode+" "+oid))
	return nil
}
