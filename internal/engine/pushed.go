package engine

import (
	"context"
	"fmt"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// shortID is how many hex digits of a commit a message shows.
const shortID = 12

// resolvePushed makes a CI push's range the run's base when nothing names another (--base, a
// session's pinned base) and the clone holds its first commit; a clone that does not (a shallow
// checkout) has nothing to compare with, and the run takes every gate, saying why.
func resolvePushed(ctx context.Context, root string, scope Scope) Scope {
	if scope.Pushed == "" || scope.Base != "" || scope.Pinned != "" {
		scope.Pushed = ""
		return scope
	}
	if !snapshot.HasCommit(ctx, root, scope.Pushed) {
		id := scope.Pushed
		if len(id) > shortID {
			id = id[:shortID]
		}
		scope.Unscoped = fmt.Sprintf("the push started at %s, which this clone does not have (check out with fetch-depth: 0)", id)
		scope.Pushed = ""
	}
	return scope
}
