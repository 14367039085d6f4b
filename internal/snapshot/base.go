package snapshot

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// Base is what the change is measured from.
type Base struct {
	// Ref is the base ref in use ("main", "origin/main", or the one asked for); "" when none was
	// found.
	Ref string
	// MergeBase is the commit HEAD and Ref have in common; "" when there is none (no base, no
	// commit yet, unrelated histories, a shallow clone). The change is everything since it.
	MergeBase string
	// WhyNone says why MergeBase is "".
	WhyNone string
}

// PinnedRef is the Ref of a pinned base, as reports name it.
const PinnedRef = "the session's base"

// autoBases are tried in order when no base is configured, after the branch origin/HEAD names;
// origin/HEAD comes first because it names the branch that pull requests target.
var autoBases = []string{"origin/HEAD", "main", "master"}

// maxRefOutput bounds the few lines of a ref lookup.
const maxRefOutput = 64 << 10

// Base resolves the base ref and its merge-base with HEAD, once per snapshot. Only an explicit
// base that names no commit is an error (wrapping ErrBaseNotFound): finding no base
// automatically is a normal state of a repository without a remote or a main branch.
func (s *Snapshot) Base(ctx context.Context) (*Base, error) {
	return s.base.get(ctx, func() (*Base, error) {
		if s.opts.Pinned != "" {
			return &Base{Ref: PinnedRef, MergeBase: s.opts.Pinned}, nil
		}
		tree, err := s.Tree(ctx)
		if err != nil {
			return nil, err
		}
		return resolveBase(ctx, s.root, s.opts.Base, tree.Head)
	})
}

// resolveBase finds the base ref and its merge-base with head (NoCommit before the first commit).
func resolveBase(ctx context.Context, dir, base, head string) (*Base, error) {
	hasHead := head != NoCommit
	if base != "" {
		return explicitBase(ctx, dir, base, hasHead)
	}
	ref, commit, err := autoBase(ctx, dir)
	if err != nil {
		return nil, err
	}
	b := &Base{Ref: ref}
	switch {
	case ref == "":
		b.WhyNone = "no base ref found (tried " + strings.Join(autoBases, ", ") + ")"
	case !hasHead:
		b.WhyNone = "HEAD has no commits yet"
	case commit == head:
		// On the base branch itself (a run of main, CI's push build): HEAD is its own
		// merge-base, and no git process needs to say so.
		b.MergeBase = head
	default:
		mb, ok := mergeBase(ctx, dir, commit)
		if !ok {
			b.WhyNone = fmt.Sprintf("no merge-base between %s and HEAD", ref)
		}
		b.MergeBase = mb
	}
	return b, nil
}

// explicitBase checks the base asked for and finds its merge-base with HEAD in one git call
// when all is well: merge-base itself refuses what is not a commit.
func explicitBase(ctx context.Context, dir, base string, hasHead bool) (*Base, error) {
	// A ref starting with "-" would be read as an option by git.
	if strings.HasPrefix(base, "-") {
		return nil, fmt.Errorf("%w: %q", ErrBaseNotFound, base)
	}
	b := &Base{Ref: base}
	if hasHead {
		if mb, ok := mergeBase(ctx, dir, base); ok {
			b.MergeBase = mb
			return b, nil
		}
	}
	// No merge-base, or no HEAD: is the base a commit at all?
	if _, err := git.Output(ctx, dir, maxRefOutput, "rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("%w: %q", ErrBaseNotFound, base)
	}
	if hasHead {
		// Unrelated histories or a shallow clone: there is no common point to diff from.
		b.WhyNone = fmt.Sprintf("no merge-base between %s and HEAD", base)
	} else {
		b.WhyNone = "HEAD has no commits yet"
	}
	return b, nil
}

// mergeBase is the merge-base of HEAD and commit; ok is false when there is none or git could
// not say.
func mergeBase(ctx context.Context, dir, commit string) (string, bool) {
	out, err := git.Output(ctx, dir, maxRefOutput, "merge-base", "HEAD", commit)
	if err != nil {
		return "", false
	}
	mb := strings.TrimSpace(string(out))
	return mb, mb != ""
}

// autoBase finds the first of the automatic bases that names a commit, with one
// `git for-each-ref` for all of them: the ref in use and the commit it names, or "" for none.
//
// A short name is resolved the way git resolves it (refs/NAME, refs/tags/NAME,
// refs/heads/NAME, refs/remotes/NAME, refs/remotes/NAME/HEAD, the first that exists); a tag
// counts when it points at a commit. The branch origin/HEAD names is taken by its short name
// ("origin/main"), as `git symbolic-ref --short` prints it.
func autoBase(ctx context.Context, dir string) (ref, commit string, err error) {
	args := []string{"for-each-ref", "--format=%(refname)%00%(symref:short)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)"}
	for _, name := range autoBases {
		args = append(args, dwimRefs(name)...)
	}
	out, err := git.Output(ctx, dir, maxRefOutput, args...)
	if err != nil {
		if ctx.Err() != nil {
			return "", "", context.Cause(ctx)
		}
		// No refs to read (an odd repository): no base, as when none of them exists.
		return "", "", nil
	}
	ref, commit = firstAutoBase(readRefs(ctx, dir, out))
	return ref, commit, nil
}

// refInfo is what for-each-ref says of a ref: the ref it points to, and the commit it names
// ("" for none).
type refInfo struct{ symref, commit string }

// readRefs reads autoBase's for-each-ref lines, by full ref name.
func readRefs(ctx context.Context, dir string, out []byte) map[string]refInfo {
	refs := map[string]refInfo{}
	for line := range bytes.Lines(out) {
		f := strings.Split(strings.TrimSuffix(string(line), "\n"), "\x00")
		if len(f) != 6 {
			continue
		}
		refs[f[0]] = refInfo{symref: f[1], commit: refCommit(ctx, dir, f)}
	}
	return refs
}

// refCommit is the commit a ref's fields name: its object when a commit, a tag's target when
// that is a commit, and what git peels a tag of a tag to.
func refCommit(ctx context.Context, dir string, f []string) string {
	switch {
	case f[3] == "commit":
		return f[2]
	case f[3] == "tag" && f[5] == "commit":
		return f[4]
	case f[3] == "tag" && f[5] == "tag":
		if out, err := git.Output(ctx, dir, maxRefOutput, "rev-parse", "--verify", "--quiet", f[0]+"^{commit}"); err == nil {
			return strings.TrimSpace(string(out))
		}
	}
	return ""
}

// firstAutoBase is the branch origin/HEAD names, else the first automatic base whose name
// resolves to a commit; "" for none.
func firstAutoBase(refs map[string]refInfo) (ref, commit string) {
	if head, ok := refs["refs/remotes/origin/HEAD"]; ok && head.symref != "" && head.commit != "" {
		return head.symref, head.commit
	}
	for _, name := range autoBases {
		if commit := resolveShortName(refs, name); commit != "" {
			return name, commit
		}
	}
	return "", ""
}

// resolveShortName is the commit name names, taking the first full ref it may mean that exists;
// "" when that one is not a commit, or none exists.
func resolveShortName(refs map[string]refInfo, name string) string {
	for _, full := range dwimRefs(name) {
		if info, ok := refs[full]; ok {
			return info.commit
		}
	}
	return ""
}

// dwimRefs are the full ref names a short name may mean, in the order git tries them.
func dwimRefs(name string) []string {
	return []string{"refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"}
}

// HasCommit says whether the repository at dir holds the commit id names: a CI names commits a
// shallow clone may not have fetched.
func HasCommit(ctx context.Context, dir, id string) bool {
	if id == "" || strings.HasPrefix(id, "-") {
		return false
	}
	_, err := git.Output(ctx, dir, maxRefOutput, "rev-parse", "--verify", "--quiet", id+"^{commit}")
	return err == nil
}
