package runner

import (
	"context"
	"io"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// OutputReader reads one gate's output as it streams, line by line, and adds what it learned to
// the gate's outcome once the gate has ended (findings, an environment cause). It sees every
// line, not just the kept tail, so it must keep its own memory bounded. Line and Finish are
// called from one goroutine.
type OutputReader interface {
	// Line receives one output line with escape sequences stripped and without its newline; the
	// slice is only valid during the call.
	Line(line []byte)
	// Finish is called once, after the last line, to fill in the outcome.
	Finish(o *gates.Outcome)
}

// ReadersFunc makes the output readers of one gate; nil, or a nil result, reads nothing.
type ReadersFunc func(g gates.Gate) []OutputReader

// Settler is an OutputReader with a last step that may take time: a probe of the environment a
// cause blames, the findings of the base a new_only gate is compared with. Settle is called once
// per gate, after every reader's Finish, in the order of the readers, with the run's context
// (the gate's own deadline may have passed), before the outcome is classified. It must bound its
// own time.
type Settler interface {
	Settle(ctx context.Context, o *gates.Outcome)
}

// OriginReader is an OutputReader told where the lines that follow come from, when the
// Invocation's Output filter knows (go test -json names the package of each line, which the
// plain text's order does not tell when packages run in parallel). Origin is called on the
// goroutine that calls Line, before the lines it applies to; "" says the origin is unknown.
type OriginReader interface {
	Origin(origin string)
}

// OriginWriter is the gate's output as an Invocation's Output filter gets it: SetOrigin says
// where the lines it writes next come from, for the readers that implement OriginReader.
type OriginWriter interface {
	io.Writer
	SetOrigin(origin string)
}
