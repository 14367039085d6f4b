package engine

import (
	"context"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/redact"
	"github.com/gauntlet-dev/gauntlet/internal/review"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/todos"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// kinds are the gate kinds this build runs besides check, which the runner runs itself. snap is
// the run's reading of the repository, whose diff review gates share; secrets hides secret values
// in what a review composes from its reviewer's output; stop says the run judges a stop, whose
// reviewer reads its prompt_file at the base, and whose control review (a reviewer answered
// without a verdict) runs in the base's checkout, which baseDir makes. A new kind is one line
// here.
func kinds(snap *snapshot.Snapshot, secrets *redact.Redactor, stop bool, baseDir func(context.Context) (string, error)) map[gates.Kind]runner.Kind {
	return map[gates.Kind]runner.Kind{
		gates.KindReview: review.Kind{Snapshot: snap, Redact: secrets.Redact, Stop: stop, ControlDir: baseDir},
		gates.KindTodos:  todos.Kind{},
	}
}
