package stophook

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"slices"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/toolid"
)

// ErrNotGit is returned by Fingerprint outside a git work tree (or without git): there is no
// state to recognise, so the caller runs the gates every time.
var ErrNotGit = snapshot.ErrNotGit

// fingerprintVersion changes whenever what goes into the hash changes, so that a fingerprint
// stored by an older gauntlet never matches one computed by a newer one.
const fingerprintVersion = "gauntlet-fp-4"

// Fingerprint identifies the state the gates would judge: HEAD, the index and the working tree
// against it, the untracked (not ignored) files' contents, the files git is told not to look
// at, what symlinks lead to, and the effective config. Same fingerprint, same verdict.
//
// root is the project root; it may be a subdirectory of the work tree, and then nothing outside
// it counts. config is hashed as given. Outside a git work tree the error is ErrNotGit.
func Fingerprint(ctx context.Context, root string, config []byte) (string, error) {
	tree, err := snapshot.New(root, snapshot.Options{}).Tree(ctx)
	if err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", root, err)
	}
	return fingerprintTree(ctx, tree, config, nil)
}

// fingerprintTree hashes one reading of the tree: git status names every path that differs from
// HEAD with its index object id, so only the work-tree files it lists (changed or untracked) are
// read, and the index listing names the files git does not look at. Staging alone changes the
// fingerprint, as a gate may look at the index. ignored are the globs of the gates' declared
// inputs: ignored files they match count too.
func fingerprintTree(ctx context.Context, tree *snapshot.Tree, config []byte, ignored []string) (string, error) {
	sum := sha256.New()
	snapshot.Field(sum, "version", []byte(fingerprintVersion))
	snapshot.Field(sum, "head", []byte(tree.Head))
	snapshot.Field(sum, "count", binary.BigEndian.AppendUint64(nil, uint64(len(tree.Entries))))
	if err := hashState(ctx, sum, tree, ignored); err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", tree.Root, err)
	}
	snapshot.Field(sum, "config", config)
	return fmt.Sprintf("%x", sum.Sum(nil)), nil
}

// hashState hashes, in this order, the entries git status lists, the files git does not look
// at, the ignored files the gates' inputs name, and what symlinks among them lead to.
func hashState(ctx context.Context, sum hash.Hash, tree *snapshot.Tree, ignored []string) error {
	if err := hashEntries(ctx, sum, tree); err != nil {
		return err
	}
	if err := tree.HiddenDigest(ctx, sum); err != nil {
		return err
	}
	// What symlinks lead to: git stores a link, never the files behind it. Links are among the
	// index's special entries, or among what git status lists (changed into a link, untracked).
	special, err := tree.Special(ctx)
	if err != nil {
		return err
	}
	links := linksOf(special, tree.Entries)
	paths, err := hashIgnored(ctx, sum, tree, ignored)
	if err != nil {
		return err
	}
	return hashBehind(ctx, sum, tree, append(links, paths...))
}

// hashEntries hashes each path git status lists with its metadata, and the work-tree content of
// those changed there.
func hashEntries(ctx context.Context, sum hash.Hash, tree *snapshot.Tree) error {
	for _, e := range tree.Entries {
		snapshot.Field(sum, "path", []byte(e.Path))
		snapshot.Field(sum, "meta", []byte(e.Meta))
		if !e.Worktree {
			continue
		}
		digest, err := tree.FileDigest(ctx, e.Path)
		if err != nil {
			return err
		}
		snapshot.Field(sum, "worktree", digest)
	}
	return nil
}

// linksOf are the paths that may be symlinks: the index's links, and every path changed in the
// work tree.
func linksOf(special []snapshot.IndexEntry, entries []snapshot.Entry) []string {
	var links []string
	for _, ie := range special {
		if ie.Mode == "120000" {
			links = append(links, ie.Path)
		}
	}
	for _, e := range entries {
		if e.Worktree {
			links = append(links, e.Path)
		}
	}
	return links
}

// hashIgnored hashes the ignored files the globs name, and returns their paths (any may be a
// link).
func hashIgnored(ctx context.Context, sum hash.Hash, tree *snapshot.Tree, ignored []string) ([]string, error) {
	paths, err := tree.Ignored(ctx, ignored)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		digest, err := tree.FileDigest(ctx, p)
		if err != nil {
			return nil, err
		}
		snapshot.Field(sum, "ignored", []byte(p))
		snapshot.Field(sum, "content", digest)
	}
	return paths, nil
}

// hashBehind hashes the files the links lead to.
func hashBehind(ctx context.Context, sum hash.Hash, tree *snapshot.Tree, links []string) error {
	for _, p := range links {
		files, err := tree.Behind(ctx, p)
		if err != nil {
			return err
		}
		for _, f := range files {
			snapshot.Field(sum, "behind", []byte(f.Path))
			snapshot.Field(sum, "content", f.Digest)
		}
	}
	return nil
}

// fingerprinter fingerprints the states one config's gates would judge (what is read of the
// index is remembered in sd, when there is one): the tree with the ignored
// files their inputs name, what else decides the verdict (inputs: the config's bytes, a todo
// list), and the tools of every enabled gate, named by tools once per call. The stop hook, a
// background judge, and both of them again after the gates ran, fingerprint alike.
func fingerprinter(cfg *config.Config, sd *state.Dir, inputs []byte, env []string, tools *toolid.Resolver) func(context.Context, *snapshot.Tree) (string, error) {
	return func(ctx context.Context, tree *snapshot.Tree) (string, error) {
		rememberSpecial(ctx, sd, tree)
		ids, err := toolsOf(ctx, tools, cfg, env)
		if err != nil {
			return "", err
		}
		return fingerprintTree(ctx, tree, slices.Concat(inputs, ids), declaredInputs(cfg))
	}
}

// toolsOf names the programs and toolchains of every enabled gate: a pass with another tool
// (another grep first on PATH, an upgraded go) says nothing about this one.
func toolsOf(ctx context.Context, tools *toolid.Resolver, cfg *config.Config, env []string) ([]byte, error) {
	var b []byte
	for _, g := range cfg.Gates {
		if !g.Enabled {
			continue
		}
		id, err := tools.Identity(ctx, g, cfg.Root, env)
		if err != nil {
			return nil, err
		}
		b = fmt.Appendf(b, "tools of %s\x00%s\x00", g.Name, id)
	}
	return b, nil
}

// declaredInputs are the input globs the enabled gates declare: ignored files they match are
// part of the state the gates judge.
func declaredInputs(cfg *config.Config) []string {
	var out []string
	for _, g := range cfg.Gates {
		if g.Enabled {
			for _, p := range g.Inputs {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
