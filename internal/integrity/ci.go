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
	checkRun  = regexp.MustCompile(`(?i)\b(?:test|tests|lint|vet|check|clippy|mypy|pytest|tox|nox|eslint|tsc|ruff|flake8|pylint|golangci-lint|staticcheck|gauntlet|typecheck|type-check|jest|vitest|mocha|coverage|gosec|govulncheck|cargo\s+(?:test|clippy|fmt\s+--check|deny|audit)|go\s+test|pre-commit)\b`)
	checkUses = regexp.MustCompile(`(?i)golangci-lint-action|gauntlet|codeql-action|super-linter|ruff-action|pre-commit/action|clippy|eslint|mypy|pytest|test`)
)

// ciStep is one step of a workflow job that runs checks.
type ciStep struct {
	file, job, key, name string
	continueOnError      bool
	disabled             bool
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
			case run != "" && checkRun.MatchString(run):
				key = "run: " + normalize(run)
			case uses != "" && checkUses.MatchString(uses):
				name, _, _ := strings.Cut(uses, "@")
				key = "uses: " + name + " " + canonical(sm["with"])
			default:
				continue
			}
			out = append(out, ciStep{
				file: file, job: job, key: key, name: str(sm["name"]),
				continueOnError: jobSoft || truthy(sm["continue-on-error"]),
				disabled:        jobOff || isFalseCondition(sm["if"]),
			})
		}
	}
	return out
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
}
