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

// schedule starts each gate once every gate it needs has finished, at most Jobs at once, in
// input order among those ready. A gate whose need did not pass or warn does not start: it is
// skipped, naming the need. A need that names no gate of gs does not hold the gate back: the
// caller decided it does not run here (answered from the cache, disabled, a setup step already
// done). Once the run is cancelled, the gates not yet started are reported cancelled.
//
// One goroutine decides and each gate runs on its own; the decisions happen when a gate
// finishes, so a gate waiting for its needs takes no slot and no goroutine.
func (r *run) schedule(gs []gates.Gate) []gates.Result {
	results := make([]gates.Result, len(gs))
	index := make(map[string]int, len(gs))
	for i, g := range gs {
		index[g.Name] = i
	}
	needs := make([][]int, len(gs))
	for i, g := range gs {
		for _, n := range g.Needs {
			if j, ok := index[n]; ok && j != i {
				needs[i] = append(needs[i], j)
			}
		}
	}
	state := make([]int, len(gs))
	done := make(chan int)
	var wg sync.WaitGroup
	defer wg.Wait()
	running, left := 0, len(gs)
	cancelled := r.ctx.Done()
	for left > 0 {
		moved := false
		for i, g := range gs {
			if state[i] != pending {
				continue
			}
			if r.ctx.Err() != nil {
				results[i] = r.notStarted(g)
				state[i], left, moved = finished, left-1, true
				continue
			}
			ready, blocker := true, -1
			for _, j := range needs[i] {
				switch {
				case state[j] != finished:
					ready = false
				case blocker < 0 && !gates.NeedMet(results[j].Status):
					blocker = j
				}
			}
			switch {
			case blocker >= 0:
				// Skipped as soon as one need is known to block, without waiting for the others.
				results[i] = r.skipped(g, results[blocker], r.rootOf(results[blocker], results, index))
				state[i], left, moved = finished, left-1, true
			case ready && running < r.opts.Jobs:
				state[i], running = started, running+1
				wg.Go(func() {
					res := r.runGate(g)
					results[i] = res
					done <- i
				})
			}
		}
		if left == 0 {
			break
		}
		if running == 0 {
			if moved {
				continue
			}
			// Nothing runs and nothing can start: the gates left wait on each other. Config
			// rules cycles out; a caller that builds gates by hand gets an error, not a hang.
			for i, g := range gs {
				if state[i] == pending {
					results[i] = r.stuck(g)
					state[i] = finished
				}
			}
			break
		}
		select {
		case i := <-done:
			state[i], running, left = finished, running-1, left-1
		case <-cancelled:
			cancelled = nil // seen once; from now on only finished gates wake the loop
		}
	}
	return results
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
