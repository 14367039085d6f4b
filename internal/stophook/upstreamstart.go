package stophook

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/session"
)

// upstreamAtStart records, in a repository with remotes, what later tells upstream work from the
// session's own: the remote-tracking branches it has, the identities it commits under, and git's
// URL rewriting rules. Two git calls, only where a remote can bring upstream work at all.
func upstreamAtStart(ctx context.Context, root string, rec *session.Record) {
	if len(rec.Remotes) == 0 {
		return
	}
	if out, err := git.Output(ctx, root, 1<<20, "for-each-ref", "--format=%(refname)", "refs/remotes"); err == nil {
		for line := range strings.Lines(string(out)) {
			if remote, branch, ok := remoteBranch(strings.TrimSpace(line)); ok {
				rec.RemoteBranches = append(rec.RemoteBranches, remote+"/"+branch)
			}
		}
	}
	rules, email := gitIdentityAndRules(ctx, root)
	rec.URLRules = rules
	rec.Identities = identities(email, os.Getenv("GIT_AUTHOR_EMAIL"), os.Getenv("GIT_COMMITTER_EMAIL"))
}

// gitIdentityAndRules reads, in one call, git's URL rewriting rules (as one string, compared
// whole) and the user.email the repository commits under.
func gitIdentityAndRules(ctx context.Context, root string) (rules, email string) {
	out, _ := git.Output(ctx, root, 64<<10, "config", "--null", "--get-regexp", `^(url\..*\.(insteadof|pushinsteadof)|user\.email)$`)
	var b strings.Builder
	for _, entry := range git.SplitNUL(out) {
		key, value, _ := strings.Cut(entry, "\n")
		if key == "user.email" {
			email = value
			continue
		}
		b.WriteString(key + "=" + value + "\n")
	}
	return b.String(), email
}

// identities are the distinct, non-empty e-mail addresses, lower-cased.
func identities(emails ...string) []string {
	var out []string
	for _, e := range emails {
		e = strings.ToLower(strings.TrimSpace(e))
		if e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// startedWith says whether the remote-tracking ref REMOTE/BRANCH may vouch for upstream work: the
// branch existed at the session's start, and git's URL rules are the ones it started with.
func startedWith(rec *session.Record, remote, branch, rulesNow string) bool {
	return slices.Contains(rec.RemoteBranches, remote+"/"+branch) && rulesNow == rec.URLRules
}

// ownCommits says whether the commits base..upstream hold one made after the session's start
// under an identity the session commits under (at its start or now): the session's own work,
// pushed to the remote, is not upstream work. A history that cannot be read counts as own.
func ownCommits(ctx context.Context, root string, rec *session.Record, emailNow, base, upstream string) bool {
	ids := identities(append(slices.Clone(rec.Identities), emailNow)...)
	since := "--since=@" + strconv.FormatInt(rec.Pinned.Unix()-1, 10)
	out, err := git.Output(ctx, root, 4<<20, "log", since, "--format=%ae%x00%ce%x00", base+".."+upstream)
	if err != nil {
		return true
	}
	for _, e := range git.SplitNUL(out) {
		if slices.Contains(ids, strings.ToLower(strings.TrimSpace(e))) {
			return true
		}
	}
	return false
}
