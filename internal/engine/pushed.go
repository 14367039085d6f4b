package engine

import (
	"context"
	"fmt"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// shortID is how many hex digits of a commit a message shows.
const shortID = 12

// resolvePushed makes a CI push's range, or a pull request's base, the run's base when nothing
// names another (--base, a session's pinned base) and the clone holds it; a clone that does not
// (a shallow checkout) has nothing to compare with, and the run takes every gate, saying why.
func resolvePushed(ctx context.Context, root string, scope Scope) Scope {
	if scope.Pushed == "" || scope.Base != "" || scope.Pinned != "" {
		scope.Pushed = ""
		return scope
	}
	if !snapshot.HasCommit(ctx, root, scope.Pushed) {
		if scope.PullRequest != "" {
			scope.Unscoped = fmt.Sprintf("the pull request's base %s is not in this clone (check out with fetch-depth: 0)", shortRef(scope.Pushed))
		} else {
			scope.Unscoped = fmt.Sprintf("the push started at %s, which this clone does not have (check out with fetch-depth: 0)", shortRef(scope.Pushed))
		}
		scope.Pushed = ""
	}
	return scope
}

// scopedTo says what a CI build's change is measured from; "" when the CI named nothing.
func scopedTo(scope Scope) string {
	switch {
	case scope.Pushed == "" || scope.Base != "" || scope.Pinned != "":
		return ""
	case scope.PullRequest != "":
		return fmt.Sprintf("the pull request against %s: the change since its merge-base with %s", scope.PullRequest, shortRef(scope.Pushed))
	}
	return "the pushed range since " + shortRef(scope.Pushed)
}

// shortRef is a commit id cut to what a message shows; a ref as it is.
func shortRef(id string) string {
	if len(id) >= 40 && len(id) > shortID {
		return id[:shortID]
	}
	return id
}
