package stophook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/session"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// upstreamTimeout bounds the whole check of upstream work, asking the remote included: the stop's
// own budget is what is left for the gates.
const upstreamTimeout = 10 * time.Second

// advanced is the base the change is measured from when HEAD is head: the pinned base, unless the
// session merged or rebased its work onto upstream commits. Work the session did not write is not
// blamed on it, but "upstream" must be what the agent cannot write: a commit counts only when a
// remote the repository had when the session started (at the URL it had then) holds it on a
// branch now, as `git ls-remote` says. A remote-tracking ref moved by hand, or a remote pointed
// elsewhere, vouches for nothing. The answer is kept per HEAD, so a stop that does not move HEAD
// asks nothing.
//
// lost says the repository's history lacks the session's base: it is not the repository the
// session started in (.git moved away and another made, or a .git file naming a fresh one).
// Checked once per HEAD too: a kept advance was made in a repository that had the base.
func advanced(ctx context.Context, root string, rec *session.Record, head string) (adv *session.Advance, lost bool) {
	adv = &session.Advance{Project: rec.Project, Session: rec.Session, Head: head, Base: rec.Base,
		ConfigPath: rec.ConfigPath, Config: rec.Config}
	if head == "" || head == rec.Head || rec.Base == "" {
		return adv, false
	}
	if kept := session.LoadAdvance(rec.Project, rec.Session, head); kept != nil {
		return kept, false
	}
	ctx, cancel := context.WithTimeout(ctx, upstreamTimeout)
	defer cancel()
	if head == snapshot.NoCommit || !hasCommit(ctx, root, rec.Base) {
		return adv, true
	}
	if len(rec.Remotes) > 0 {
		moveOntoUpstream(ctx, root, rec, head, adv)
	}
	// Not kept, it is only asked again at the next stop.
	_ = session.SaveAdvance(adv)
	return adv, false
}

// hasCommit says whether the repository at root holds commit. A failure to ask counts as
// holding it: git that cannot read the repository is judged by the stop itself (unmeasured).
func hasCommit(ctx context.Context, root, commit string) bool {
	err := git.Run(ctx, root, nil, "cat-file", "-e", commit+"^{commit}")
	var gerr *git.Error
	return err == nil || !errors.As(err, &gerr) || gerr.ExitCode < 0 || git.IsNotRepo(err) || ctx.Err() != nil
}

// moveOntoUpstream moves adv's base onto the upstream work HEAD sits on, when a remote vouches
// for it (vouchedBase).
func moveOntoUpstream(ctx context.Context, root string, rec *session.Record, head string, adv *session.Advance) {
	out, err := git.Output(ctx, root, 1<<20, "for-each-ref", "--contains", rec.Base,
		"--format=%(refname)%00%(objectname)", "refs/remotes")
	if err != nil {
		return
	}
	now := upstreamNow{}
	now.rules, now.email = gitIdentityAndRules(ctx, root)
	for line := range bytes.Lines(out) {
		if base, via, ok := vouchedBase(ctx, root, rec, now, head, adv.Base, line); ok {
			adv.Base, adv.Via = base, via
		}
	}
	if adv.Base != rec.Base {
		adv.ConfigPath, adv.Config = configAt(ctx, root, adv.Base, rec.ConfigPath)
	}
}

// vouchedBase is the base a remote-tracking ref (a line of for-each-ref: name, NUL, tip) moves
// base onto: the merge base of head and its tip, when it is newer than base and the remote the
// session started with holds it on that branch now. ok is false when the ref vouches for nothing.
//
// The commits it moves base over must be someone else's work: the branch existed at the session's
// start (one the session pushed and fetched is its own), git's URL rules are the ones the session
// started with (a rewritten URL sends ls-remote to a repository of the session's own), and none
// of them was made after the start under the session's identity.
func vouchedBase(ctx context.Context, root string, rec *session.Record, now upstreamNow, head, base string, line []byte) (newBase, via string, ok bool) {
	ref, tip, cut := strings.Cut(strings.TrimSpace(string(line)), "\x00")
	remote, branch, isBranch := remoteBranch(ref)
	url := rec.Remotes[remote]
	if !cut || !isBranch || url == "" || !startedWith(rec, remote, branch, now.rules) {
		return "", "", false
	}
	m := mergeBaseOf(ctx, root, head, tip)
	if m == "" || m == base || !isAncestor(ctx, root, base, m) || ownCommits(ctx, root, rec, now.email, base, m) ||
		!remoteHolds(ctx, root, url, branch, m) {
		return "", "", false
	}
	return m, remote + "/" + branch, true
}

// upstreamNow is what the stop reads of git's config once for every remote-tracking ref.
type upstreamNow struct{ rules, email string }

// remoteBranch splits refs/remotes/REMOTE/BRANCH; a remote's HEAD is no branch.
func remoteBranch(ref string) (remote, branch string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "refs/remotes/")
	if !ok {
		return "", "", false
	}
	remote, branch, ok = strings.Cut(rest, "/")
	return remote, branch, ok && branch != "HEAD" && remote != ""
}

func mergeBaseOf(ctx context.Context, root, a, b string) string {
	out, err := git.Output(ctx, root, 4096, "merge-base", a, b)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func isAncestor(ctx context.Context, root, ancestor, of string) bool {
	return git.Run(ctx, root, nil, "merge-base", "--is-ancestor", ancestor, of) == nil
}

// remoteHolds says whether the remote at url holds commit on branch now: its tip, which the
// repository must have, descends from commit.
func remoteHolds(ctx context.Context, root, url, branch, commit string) bool {
	out, err := git.Output(ctx, root, 64<<10, "ls-remote", "--heads", "--", url, "refs/heads/"+branch)
	if err != nil {
		return false
	}
	tip, _, ok := strings.Cut(strings.TrimSpace(string(out)), "\t")
	return ok && tip != "" && isAncestor(ctx, root, commit, tip)
}

// configAt is the config at commit, by the name the session's base had it under (else either
// name); ("", nil) when the commit has none.
func configAt(ctx context.Context, root, commit, name string) (string, []byte) {
	snap := snapshot.New(root, snapshot.Options{})
	for _, n := range []string{name, config.FileName, config.AltFileName} {
		if n == "" {
			continue
		}
		if data, found, err := snap.FileAt(ctx, commit, n, config.MaxFileBytes); err == nil && found {
			return n, data
		}
	}
	return "", nil
}

// remotesOf are the repository's remotes and their URLs as the session starts, read from its
// config file rather than from git (the first hook call of a session must stay cheap): a remote
// written elsewhere (an included file) is missed, which only means its work counts as the
// session's.
func remotesOf(root string) map[string]string {
	layout, err := git.FindLayout(root)
	if err != nil {
		return nil
	}
	data, err := safefile.ReadFile(filepath.Join(layout.CommonDir, "config"), 1<<20, time.Now().Add(time.Second))
	if err != nil {
		return nil
	}
	remotes := map[string]string{}
	section := ""
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = remoteSection(line)
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if ok && section != "" && strings.EqualFold(strings.TrimSpace(key), "url") {
			remotes[section] = strings.Trim(strings.TrimSpace(value), `"`)
		}
	}
	return remotes
}

// remoteSection is the remote a section header of git's config names, "" for another section.
func remoteSection(header string) string {
	if name, ok := strings.CutPrefix(strings.TrimSuffix(header, "]"), `[remote "`); ok {
		return strings.TrimSuffix(name, `"`)
	}
	return ""
}

// advanceNote says, for stderr, that upstream work is not the session's.
func advanceNote(adv *session.Advance, pinned string) string {
	if adv.Base == pinned {
		return ""
	}
	return fmt.Sprintf("the change is measured from %s, the upstream work on %s the session merged (pinned at %s)",
		adv.Base[:min(12, len(adv.Base))], adv.Via, pinned[:min(12, len(pinned))])
}
