package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/baseconfig"
	"github.com/gauntlet-dev/gauntlet/internal/policy"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
	"github.com/gauntlet-dev/gauntlet/internal/state"
)

// PassedFile lists the gates that have passed at least once in this checkout: a gate that never
// has, timing out before it reports anything, is most likely building from cold caches (an empty
// Go build cache, a first cargo build), which the agent cannot fix and a longer first run can.
// It is kept sealed beside the user's key (seal.Key.ProjectFile), out of the work tree's reach:
// deleting the state dir, or editing the list, would otherwise give the agent back the excuse for
// a change that hangs. The same name under the state dir is read too (written before the record
// moved, or by a test): it can only add passes, never take one away.
const PassedFile = "state/passed.json"

// passedRecord is the name of the sealed list in the user's state directory.
const passedRecord = "passed.json"

const sealPassed = "gates passed"

// ColdBuildID is the cause given to such a timeout.
const ColdBuildID = policy.ColdBuildID

// maxPassedBytes bounds the read of the list; maxPassedNames bounds what it keeps, far above any
// config's gate count.
const (
	maxPassedBytes = 1 << 20
	maxPassedNames = 2000
)

// passedList is the sealed record.
type passedList struct {
	Project string   `json:"project"`
	Gates   []string `json:"gates"`
	MAC     string   `json:"mac,omitempty"`
}

func (p *passedList) SealField() *string { return &p.MAC }

// passed is what is known of the gates that passed here.
type passed struct {
	names map[string]bool
	// all is set when the record fails its seal: what it said is unknown, so every gate counts
	// as having passed and no timeout is excused.
	all bool
}

func (p passed) has(name string) bool { return p.all || p.names[name] }

func readPassed(sd *state.Dir) passed {
	p := passed{names: map[string]bool{}}
	for _, n := range unsealedPasses(sd) {
		p.names[n] = true
	}
	key, err := seal.Load()
	if err != nil {
		return p
	}
	names, trusted := sealedPasses(sd, key)
	if !trusted {
		p.all = true
		return p
	}
	for _, n := range names {
		p.names[n] = true
	}
	return p
}

// unsealedPasses is the list under the state dir: it can only add passes.
func unsealedPasses(sd *state.Dir) []string {
	data, err := sd.ReadFileLimit(PassedFile, maxPassedBytes)
	if err != nil {
		return nil
	}
	var names []string
	if json.Unmarshal(data, &names) != nil {
		return nil
	}
	return names
}

// sealedPasses is the sealed record beside the user's key: none when there is no record yet;
// trusted is false when it cannot be read or fails its seal.
func sealedPasses(sd *state.Dir, key *seal.Key) (names []string, trusted bool) {
	data, err := safefile.ReadFile(key.ProjectFile(sd.Identity(), passedRecord), maxPassedBytes, time.Now().Add(5*time.Second))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	var list passedList
	if err != nil || json.Unmarshal(data, &list) != nil || list.Project != sd.Identity() || !key.VerifyJSON(sealPassed, sd.Identity(), &list) {
		return nil, false
	}
	return list.Gates, true
}

// coldJudge asks the verdict policy whether a check that timed out before reporting any result is
// a cold build's error: the policy decides, from the gate's result and whether it ever passed
// here. It needs nothing but the gate's result, so it judges each gate as it ends, for the
// live view, and the run's results after; the record of passes is read once for both, so that
// they agree.
type coldJudge struct {
	sd     *state.Dir
	byName map[string]gates.Gate
	once   sync.Once
	ever   passed
}

func newColdJudge(sd *state.Dir, byName map[string]gates.Gate) *coldJudge {
	return &coldJudge{sd: sd, byName: byName}
}

// judge returns r, turned into an error with the cold-build cause when the verdict policy says
// it is one (policy.JudgeTimeout); the record of passes is read only when it decides. Safe for
// concurrent use: the gates end on their own goroutines.
func (c *coldJudge) judge(r gates.Result) gates.Result {
	g, ok := c.byName[r.Name]
	ev := policy.TimeoutEvidence{Result: r, Check: ok && isCheck(g), Timeout: g.Timeout}
	if !policy.AsksPasses(ev) {
		return r
	}
	c.once.Do(func() { c.ever = readPassed(c.sd) })
	// By definition: a gate renamed is the same gate, and renews no excuse. Names are what
	// older records hold.
	ev.EverPassed = c.ever.has(definitionKey(g)) || c.ever.has(r.Name)
	return policy.JudgeTimeout(ev)
}

// all judges every result of the run.
func (c *coldJudge) all(results []gates.Result) []gates.Result {
	for i, r := range results {
		results[i] = c.judge(r)
	}
	return results
}

// recordPasses adds the gates that passed (cached passes included) to the record; it writes only
// when the list changes. Without the user's key the list goes under the state dir, where it is
// better than nothing.
func recordPasses(sd *state.Dir, byName map[string]gates.Gate, results []gates.Result) error {
	var names []string
	for _, g := range byName {
		names = append(names, definitionKey(g))
	}
	p := readPassed(sd)
	if p.all {
		// A record that fails its seal stays as it is: rewritten from what can be trusted, it
		// would forget the gates the edit removed, and give their timeouts the excuse back.
		return nil
	}
	if !p.add(byName, results) {
		return nil
	}
	return writePassed(sd, p.kept(names))
}

// add adds the gates that passed among results; false when none was new.
func (p passed) add(byName map[string]gates.Gate, results []gates.Result) (changed bool) {
	for _, r := range results {
		g, ok := byName[r.Name]
		if r.Status == gates.StatusPass && ok && !p.names[definitionKey(g)] {
			p.names[definitionKey(g)], changed = true, true
		}
	}
	return changed
}

// kept is the list to record. Every name is kept, not only the config's (names): a run with
// another config (-c) must not make the record forget a gate. The list is bounded, the newest
// names of the config first.
func (p passed) kept(names []string) []string {
	keep := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !p.names[n] })
	for n := range p.names {
		if len(keep) >= maxPassedNames {
			break
		}
		if !slices.Contains(names, n) {
			keep = append(keep, n)
		}
	}
	slices.Sort(keep)
	return keep
}

// writePassed records the list: sealed beside the user's key, or, without the key, under the
// state dir, where it is better than nothing.
func writePassed(sd *state.Dir, keep []string) error {
	key, err := seal.Load()
	if err != nil {
		data, err := json.Marshal(keep)
		if err != nil {
			return fmt.Errorf("encode %s: %w", PassedFile, err)
		}
		return sd.WriteFileAtomic(PassedFile, append(data, '\n'))
	}
	list := passedList{Project: sd.Identity(), Gates: keep}
	if err := key.SealJSON(sealPassed, sd.Identity(), &list); err != nil {
		return err
	}
	data, err := json.Marshal(list)
	if err != nil {
		return fmt.Errorf("encode the gates that passed: %w", err)
	}
	if err := seal.WriteProjectFile(key.ProjectFile(sd.Identity(), passedRecord), data); err != nil {
		return fmt.Errorf("record the gates that passed: %w", err)
	}
	return nil
}

// definitionKey names a gate in the record by its definition (baseconfig.Digest), not its name.
func definitionKey(g gates.Gate) string { return "definition:" + baseconfig.Digest(g) }
