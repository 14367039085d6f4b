package integrity

import (
	"fmt"
	"regexp"
	"strings"

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
var checkWords = map[string]bool{
	"test": true, "tests": true, "lint": true, "vet": true, "check": true, "clippy": true, "mypy": true, "pytest": true,
	"tox": true, "nox": true, "tsc": true, "ruff": true, "flake8": true, "pylint": true, "staticcheck": true,
	"gauntlet": true, "typecheck": true, "types": true, "jest": true, "vitest": true, "mocha": true, "coverage": true,
	"gosec": true, "govulncheck": true, "audit": true, "deny": true, "gotestsum": true, "ginkgo": true, "nextest": true,
}

var notTests = map[string]bool{"latest": true, "greatest": true, "contest": true, "attest": true, "protest": true}

var wordSplit = lazy(`[^A-Za-z0-9_]+`)

func runsChecks(run string) bool {
	for _, w := range wordSplit.Split(strings.ToLower(run), -1) {
		if checkWords[w] || strings.HasSuffix(w, "lint") || strings.HasPrefix(w, "test") ||
			strings.HasSuffix(w, "test") && !notTests[w] {
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
			run, uses := str(sm["run"]), str(sm["uses"])
			var key string
			switch {
			case run != "" && runsChecks(run):
				key = "run: " + normalize(run)
			case uses != "" && checkUses.MatchString(uses):
				name, _, _ := strings.Cut(uses, "@")
				key = "uses: " + name + " " + canonical(sm["with"])
			default:
				continue
			}
			out = append(out, ciStep{
				file: file, job: job, key: key, name: str(sm["name"]), run: run,
				continueOnError: jobSoft || truthy(sm["continue-on-error"]),
				disabled:        jobOff || isFalseCondition(sm["if"]),
			})
		}
	}
	return out
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
	var oldSteps, newSteps []ciStep
	var reusable []string
	newData := map[string][]byte{}
	for _, f := range j.files {
		if !isWorkflow(f.Path) && !isWorkflow(f.OldPath) {
			continue
		}
		pair, ok := j.load(f)
		if !ok {
			continue
		}
		oldSteps = append(oldSteps, workflowSteps(f.Path, pair.old)...)
		newSteps = append(newSteps, workflowSteps(f.Path, pair.new)...)
		reusable = append(reusable, reusableInputs(pair.new)...)
		newData[f.Path] = pair.newData
	}
	if len(oldSteps) == 0 {
		return
	}
	pool := map[string][]int{}
	for i, s := range newSteps {
		pool[s.key] = append(pool[s.key], i)
	}
	used := make([]bool, len(newSteps))
	var unmatched []ciStep
	for _, o := range oldSteps {
		idx := pool[o.key]
		if len(idx) == 0 {
			unmatched = append(unmatched, o)
			continue
		}
		pool[o.key] = idx[1:]
		used[idx[0]] = true
		j.stepWeakened(o, newSteps[idx[0]], newData)
	}
	for _, o := range unmatched {
		// The same step, edited: same job and name, or the job's only unmatched check step.
		match := -1
		for i, n := range newSteps {
			if !used[i] && n.file == o.file && n.job == o.job && (n.name == o.name && o.name != "" || o.name == "" && n.name == "") {
				match = i
				break
			}
		}
		if match >= 0 {
			used[match] = true
			j.stepWeakened(o, newSteps[match], newData)
			continue
		}
		if handedTo(o, reusable) {
			continue
		}
		where := fmt.Sprintf("job %s", o.job)
		label := cmpOr(o.name, excerpt(strings.TrimPrefix(strings.TrimPrefix(o.key, "run: "), "uses: ")))
		j.add(gates.RuleCICheckRemoved, o.file, lineOf(newData[o.file], "jobs", o.job), "CI step %s removed from %s", shown(label), where)
	}
}

func (j *judge) stepWeakened(o, n ciStep, newData map[string][]byte) {
	label := cmpOr(n.name, excerpt(strings.TrimPrefix(strings.TrimPrefix(n.key, "run: "), "uses: ")))
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
