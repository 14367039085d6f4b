package runner

import (
	"fmt"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Where a gate is in its run.
const (
	pending = iota
	started
	finished
)

// schedule starts each gate once every gate it needs has finished (and a gate the change added
// once every gate of the base has: Gate.AfterBase), at most Jobs at once, in
// input order among those ready. A gate whose need did not pass or warn does not start: it is
// skipped, naming the need. A need that names no gate of gs does not hold the gate back: the
// caller decided it does not run here (answered from the cache, disabled, a setup step already
// done). Once the run is cancelled, the gates not yet started are reported cancelled.
//
// One goroutine decides and each gate runs on its own; the decisions happen when a gate
// finishes, so a gate waiting for its needs takes no slot and no goroutine.
func (r *run) schedule(gs []gates.Gate) []gates.Result {
	s := newScheduler(r, gs)
	defer s.wg.Wait()
	cancelled := r.ctx.Done()
	for s.left > 0 {
		moved := s.advance()
		if s.left == 0 {
			break
		}
		if s.running == 0 {
			if moved {
				continue
			}
			// Nothing runs and nothing can start: the gates left wait on each other. Config
			// rules cycles out; a caller that builds gates by hand gets an error, not a hang.
			s.markStuck()
			break
		}
		select {
		case i := <-s.done:
			s.state[i], s.running, s.left = finished, s.running-1, s.left-1
		case <-cancelled:
			cancelled = nil // seen once; from now on only finished gates wake the loop
		}
	}
	return s.results
}

// scheduler is schedule's state: where each gate is, what it needs (by index), its result.
type scheduler struct {
	r       *run
	gs      []gates.Gate
	results []gates.Result
	index   map[string]int
	needs   [][]int
	after   [][]int // gates that must have finished first, whatever their result (AfterBase)
	state   []int
	done    chan int
	wg      sync.WaitGroup
	running int
	left    int
	// baseDone says whether Options.BaseDone was called.
	baseDone bool
}

func newScheduler(r *run, gs []gates.Gate) *scheduler {
	s := &scheduler{r: r, gs: gs, results: make([]gates.Result, len(gs)), index: make(map[string]int, len(gs)),
		needs: make([][]int, len(gs)), after: make([][]int, len(gs)), state: make([]int, len(gs)), done: make(chan int), left: len(gs)}
	for i, g := range gs {
		s.index[g.Name] = i
	}
	for i, g := range gs {
		for _, n := range g.Needs {
			if j, ok := s.index[n]; ok && j != i {
				s.needs[i] = append(s.needs[i], j)
			}
		}
		if g.AfterBase {
			s.after[i] = baseGates(gs)
		}
	}
	return s
}

// baseGates are the indexes of the gates the session's base defines, which a gate the change
// added waits for.
func baseGates(gs []gates.Gate) []int {
	var out []int
	for i, g := range gs {
		if !g.AfterBase {
			out = append(out, i)
		}
	}
	return out
}

// advance decides every pending gate it can: cancelled once the run is, skipped as soon as one
// need is known to block (without waiting for the others), started when all its needs finished
// and a slot is free. moved says whether a gate finished without running.
func (s *scheduler) advance() (moved bool) {
	for i, g := range s.gs {
		if s.state[i] != pending {
			continue
		}
		if s.r.ctx.Err() != nil {
			s.finish(i, s.r.notStarted(g))
			moved = true
			continue
		}
		ready, blocker := s.readiness(i)
		switch {
		case blocker >= 0:
			s.finish(i, s.r.skipped(g, s.results[blocker], s.r.rootOf(s.results[blocker], s.results, s.index)))
			moved = true
		case ready && s.running < s.r.opts.Jobs:
			s.start(i, g)
		}
	}
	return moved
}

// readiness says whether every need of gate i finished, and the first that finished without
// being met (-1: none).
func (s *scheduler) readiness(i int) (ready bool, blocker int) {
	ready, blocker = true, -1
	for _, j := range s.needs[i] {
		switch {
		case s.state[j] != finished:
			ready = false
		case blocker < 0 && !gates.NeedMet(s.results[j].Status):
			blocker = j
		}
	}
	for _, j := range s.after[i] {
		ready = ready && s.state[j] == finished
	}
	return ready, blocker
}

func (s *scheduler) finish(i int, res gates.Result) {
	s.results[i], s.state[i], s.left = res, finished, s.left-1
}

func (s *scheduler) start(i int, g gates.Gate) {
	if g.AfterBase && !s.baseDone {
		s.baseDone = true
		if s.r.opts.BaseDone != nil {
			s.r.opts.BaseDone()
		}
	}
	s.state[i], s.running = started, s.running+1
	s.wg.Go(func() {
		s.results[i] = s.r.runGate(g)
		s.done <- i
	})
}

// markStuck reports every gate still pending as stuck on the others.
func (s *scheduler) markStuck() {
	for i, g := range s.gs {
		if s.state[i] == pending {
			s.results[i] = s.r.stuck(g)
			s.state[i] = finished
		}
	}
}

// rootOf follows a chain of gates skipped for their needs back to the result that started it.
// Each step goes to a gate that finished earlier, so the walk ends within len(results) steps.
func (r *run) rootOf(need gates.Result, results []gates.Result, index map[string]int) gates.Result {
	root := need
	for range results {
		j, ok := index[root.SkippedBecause]
		if root.Status != gates.StatusSkipped || !ok {
			break
		}
		root = results[j]
	}
	return root
}

// skipped is the result of a gate whose need did not pass; the observer sees it finish without
// having started.
func (r *run) skipped(g gates.Gate, need, root gates.Result) gates.Result {
	res := gates.SkippedForNeed(g, need, root)
	r.finished(&res)
	return res
}

// stuck is the result of a gate whose needs can never finish.
func (r *run) stuck(g gates.Gate) gates.Result {
	res := gates.Result{
		Name:     g.Name,
		Kind:     g.Kind,
		Status:   gates.StatusError,
		ExitCode: -1,
		Reason:   fmt.Sprintf("gauntlet error: the needs of gate %s form a cycle, so it could not start", g.Name),
		Hint:     g.Hint,
		Command:  g.Command(),
		Needs:    g.Needs,
	}
	r.finished(&res)
	return res
}
