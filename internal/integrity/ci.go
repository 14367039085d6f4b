package integrity

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func isWorkflow(p string) bool {
	return strings.HasPrefix(p, ".github/workflows/") && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml"))
}

// checkWords name a step that runs checks rather than building, releasing or deploying.
var (
	checkUses = lazy(`(?i)golangci-lint-action|gauntlet|codeql-action|super-linter|ruff-action|pre-commit/action|clippy|eslint|mypy|pytest|test`)
)

// ciStep is one step of a workflow job that runs checks.
type ciStep struct {
	file, job, key, name string
	run                  string // the step's command as written
	continueOnError      bool
	disabled             bool
}

// checkWords are the words of a command that runs checks; a word ending in test or lint
// (richtest, eslint) or starting with test (test:unit) counts too.
var checkWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"test": true, "tests": true, "lint": true, "vet": true, "check": true, "clippy": true, "mypy": true, "pytest": true,
		"tox": true, "nox": true, "tsc": true, "ruff": true, "flake8": true, "pylint": true, "staticcheck": true,
		"gauntlet": true, "typecheck": true, "types": true, "jest": true, "vitest": true, "mocha": true, "coverage": true,
		"gosec": true, "govulncheck": true, "audit": true, "deny": true, "gotestsum": true, "ginkgo": true, "nextest": true,
	}
})

var notTests = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"latest": true, "greatest": true, "contest": true, "attest": true, "protest": true}
})

var wordSplit = lazy(`[^A-Za-z0-9_]+`)

func runsChecks(run string) bool {
	for _, w := range wordSplit.Split(strings.ToLower(run), -1) {
		if checkWords()[w] || strings.HasSuffix(w, "lint") || strings.HasPrefix(w, "test") ||
			strings.HasSuffix(w, "test") && !notTests()[w] {
			return true
		}
	}
	return false
}

func workflowSteps(file string, tree map[string]any) []ciStep {
	var out []ciStep
	jobs := getMap(tree, "jobs")
	for _, job := range sortedKeys(jobs) {
		jm, _ := jobs[job].(map[string]any)
		jobSoft := truthy(jm["continue-on-error"])
		jobOff := isFalseCondition(jm["if"])
		steps, _ := jm["steps"].([]any)
		for _, s := range steps {
			sm, _ := s.(map[string]any)
			key, checks := checkStepKey(sm)
			if !checks {
				continue
			}
			out = append(out, ciStep{
				file: file, job: job, key: key, name: str(sm["name"]), run: str(sm["run"]),
				continueOnError: jobSoft || truthy(sm["continue-on-error"]),
				disabled:        jobOff || isFalseCondition(sm["if"]),
			})
		}
	}
	return out
}

// checkStepKey says whether a workflow step runs checks, and keys it by what it runs (its
// command, or its action and inputs) to pair it with the same step elsewhere.
func checkStepKey(step map[string]any) (string, bool) {
	run, uses := str(step["run"]), str(step["uses"])
	switch {
	case run != "" && runsChecks(run):
		return "run: " + normalize(run), true
	case uses != "" && checkUses.MatchString(uses):
		name, _, _ := strings.Cut(uses, "@")
		return "uses: " + name + " " + canonical(step["with"]), true
	}
	return "", false
}

// reusableInputs are the inputs of jobs that call a reusable workflow, lower-cased: a check step
// replaced by such a call that names the same script was handed over, not removed.
func reusableInputs(tree map[string]any) []string {
	var out []string
	jobs := getMap(tree, "jobs")
	for _, job := range sortedKeys(jobs) {
		jm, _ := jobs[job].(map[string]any)
		if str(jm["uses"]) != "" {
			out = append(out, strings.ToLower(canonical(jm["with"])))
		}
	}
	return out
}

// handedTo says whether a removed step's script (the last word of its command) is named, as a
// quoted word, in the inputs of a reusable workflow the change calls.
func handedTo(step ciStep, reusable []string) bool {
	words := wordSplit.Split(strings.ToLower(strings.TrimPrefix(step.key, "run: ")), -1)
	for len(words) > 0 && words[len(words)-1] == "" {
		words = words[:len(words)-1]
	}
	if len(words) == 0 || !strings.HasPrefix(step.key, "run: ") {
		return false
	}
	last := words[len(words)-1]
	for _, text := range reusable {
		if regexp.MustCompile(`\\?"` + regexp.QuoteMeta(last) + `\\?"`).MatchString(text) {
			return true
		}
	}
	return false
}

func isFalseCondition(v any) bool {
	if v == false {
		return true
	}
	s := strings.ReplaceAll(strings.TrimSpace(str(v)), " ", "")
	return s == "false" || s == "${{false}}"
}

// checkWorkflows compares the check steps of every workflow before and after, as one set: a
// step moved to another job or file still runs. A step whose command changed in place (same
// job, same name) is a change, not a removal; one that now may fail, or never runs, is reported.
func (j *judge) checkWorkflows() {
	w := j.workflows()
	if len(w.oldSteps) == 0 {
		return
	}
	used := make([]bool, len(w.newSteps))
	for _, o := range j.sameSteps(w, used) {
		j.editedOrRemoved(w, o, used)
	}
}

// workflowChange is what the change does to the workflows: their check steps before and after,
// the inputs of the reusable workflows they now call, and the new files' text.
type workflowChange struct {
	oldSteps, newSteps []ciStep
	reusable           []string
	newData            map[string][]byte
}

func (j *judge) workflows() workflowChange {
	w := workflowChange{newData: map[string][]byte{}}
	for _, f := range j.files {
		if !isWorkflow(f.Path) && !isWorkflow(f.OldPath) {
			continue
		}
		pair, ok := j.load(f)
		if !ok {
			continue
		}
		w.oldSteps = append(w.oldSteps, workflowSteps(f.Path, pair.old)...)
		w.newSteps = append(w.newSteps, workflowSteps(f.Path, pair.new)...)
		w.reusable = append(w.reusable, reusableInputs(pair.new)...)
		w.newData[f.Path] = pair.newData
	}
	return w
}

// sameSteps pairs each old step with a new one running the same check, anywhere, and judges the
// pair; used marks the new steps taken. It returns the old steps left unpaired.
func (j *judge) sameSteps(w workflowChange, used []bool) []ciStep {
	pool := map[string][]int{}
	for i, s := range w.newSteps {
		pool[s.key] = append(pool[s.key], i)
	}
	var unmatched []ciStep
	for _, o := range w.oldSteps {
		idx := pool[o.key]
		if len(idx) == 0 {
			unmatched = append(unmatched, o)
			continue
		}
		pool[o.key] = idx[1:]
		used[idx[0]] = true
		j.stepWeakened(o, w.newSteps[idx[0]], w.newData)
	}
	return unmatched
}

// editedOrRemoved judges an old step no new one runs the same check as: the same step edited,
// a step handed to a reusable workflow, or a step removed.
func (j *judge) editedOrRemoved(w workflowChange, o ciStep, used []bool) {
	if match := editedStep(o, w.newSteps, used); match >= 0 {
		used[match] = true
		j.stepWeakened(o, w.newSteps[match], w.newData)
		return
	}
	if handedTo(o, w.reusable) {
		return
	}
	j.add(gates.RuleCICheckRemoved, o.file, lineOf(w.newData[o.file], "jobs", o.job), "CI step %s removed from %s", shown(stepLabel(o)), fmt.Sprintf("job %s", o.job))
}

// editedStep is the new step not yet taken that is the old one edited: same job and name, or the
// job's only unnamed one; -1 when there is none.
func editedStep(o ciStep, newSteps []ciStep, used []bool) int {
	for i, n := range newSteps {
		if !used[i] && n.file == o.file && n.job == o.job && sameName(o.name, n.name) {
			return i
		}
	}
	return -1
}

func sameName(o, n string) bool {
	return n == o && o != "" || o == "" && n == ""
}

// stepLabel names a step in a message: its name, else its command or action.
func stepLabel(s ciStep) string {
	return cmpOr(s.name, excerpt(strings.TrimPrefix(strings.TrimPrefix(s.key, "run: "), "uses: ")))
}

func (j *judge) stepWeakened(o, n ciStep, newData map[string][]byte) {
	label := stepLabel(n)
	line := cmpOr0(lineOf(newData[n.file], "jobs", n.job, "continue-on-error"), lineOf(newData[n.file], "jobs", n.job))
	if !o.continueOnError && n.continueOnError {
		j.add(gates.RuleCICheckRemoved, n.file, line, "CI step %s in job %s may now fail (continue-on-error)", shown(label), n.job)
	}
	if !o.disabled && n.disabled {
		j.add(gates.RuleCICheckRemoved, n.file, lineOf(newData[n.file], "jobs", n.job), "CI step %s in job %s never runs (if: false)", shown(label), n.job)
	}
	if strings.HasPrefix(n.key, "run: ") && !neutered(strings.TrimPrefix(o.key, "run: ")) && neutered(strings.TrimPrefix(n.key, "run: ")) {
		j.add(gates.RuleCICheckRemoved, n.file, lineOf(newData[n.file], "jobs", n.job), "CI step %s in job %s can no longer fail", shown(label), n.job)
	}
	if why, _ := narrowedCommands([]string{o.run}, []string{n.run}); why != "" {
		j.add(gates.RuleTestsExcluded, n.file, lineOf(newData[n.file], "jobs", n.job), "CI step %s in job %s runs fewer tests: %s", shown(label), n.job, why)
	}
}
