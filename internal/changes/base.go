package changes

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrBaseNotFound is wrapped by Detect's error when an explicitly requested base ref does not
// exist, so that the CLI can report it as a usage error.
var ErrBaseNotFound = errors.New("base ref not found")

// autoBases are tried in order when no base is configured; origin/HEAD is first because it names
// the branch that pull requests target.
var autoBases = []string{"main", "master"}

// resolveBase returns the base ref to diff against, or "" and the reason there is none. Only an
// explicit base that does not exist is an error: auto detection failing is a normal state of a
// repository without a remote or a main branch.
func resolveBase(ctx context.Context, dir, base string) (ref, whyNone string, err error) {
	if base != "" {
		// A ref starting with "-" would be read as an option by git.
		if strings.HasPrefix(base, "-") || !isCommit(ctx, dir, base) {
			return "", "", fmt.Errorf("%w: %q", ErrBaseNotFound, base)
		}
		return base, "", nil
	}

	if out, err := runGit(ctx, dir, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if short := strings.TrimSpace(string(out)); short != "" && isCommit(ctx, dir, short) {
			return short, "", nil
		}
	}
	candidates := append([]string{"origin/HEAD"}, autoBases...)
	for _, candidate := range candidates {
		if isCommit(ctx, dir, candidate) {
			return candidate, "", nil
		}
	}
	return "", "no base ref found (tried " + strings.Join(candidates, ", ") + ")", nil
}

// isCommit reports whether ref names a commit. Any failure, including a git error, counts as no.
func isCommit(ctx context.Context, dir, ref string) bool {
	_, err := runGit(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return err == nil
}

// MergeBase returns the commit the change is measured from: the merge-base of HEAD and the base
// ref (base, or auto-detected when ""). It is "" when there is none, so that callers keying on it
// (the gate cache) see "no base" as a state of its own.
func MergeBase(ctx context.Context, dir, base string) string {
	ref, _, err := resolveBase(ctx, dir, base)
	if err != nil || ref == "" {
		return ""
	}
	out, err := runGit(ctx, dir, "merge-base", "HEAD", ref)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
