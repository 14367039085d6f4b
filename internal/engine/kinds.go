package engine

import (
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/review"
	"github.com/gauntlet-dev/gauntlet/internal/todos"
	"github.com/gauntlet-dev/gauntlet/runner"
)

// kinds are the gate kinds this build runs besides check, which the runner runs itself. base is
// the ref review gates diff against ("" means auto). A new kind is one line here.
func kinds(base string) map[gates.Kind]runner.Kind {
	return map[gates.Kind]runner.Kind{
		gates.KindReview: review.Kind{Base: base},
		gates.KindTodos:  todos.Kind{},
	}
}
