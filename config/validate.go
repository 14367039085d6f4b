package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

var gateKinds = []string{string(gates.KindCheck), string(gates.KindReview), string(gates.KindTodos)}

// validateGates checks what depends on several keys at once, or on the project on disk. It runs
// after the local override is merged, because the local file may complete or change a gate.
func validateGates(gs gateMap, root string) []Problem {
	var problems []Problem
	for _, ng := range gs {
		problems = append(problems, validateGate(ng)...)
		if p, ok := dirEscapes(fmt.Sprintf("gate %q", ng.Name), ng.Gate.Dir, &ng.Gate.positions, root); ok {
			problems = append(problems, p)
		}
	}
	return problems
}

// dirEscapes catches a dir that stays inside the root by name but leaves it through a symlink:
// the gate would run, and write, outside the project. A dir that does not exist yet is left to
// the run, which reports it as a gate that cannot start.
func dirEscapes(what string, dir *string, at *positions, root string) (Problem, bool) {
	if dir == nil || root == "" || checkRelDir(*dir) != "" {
		return Problem{}, false
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return Problem{}, false
	}
	realDir, err := filepath.EvalSymlinks(filepath.Join(root, *dir))
	if err != nil {
		return Problem{}, false
	}
	if rel, err := filepath.Rel(realRoot, realDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Problem{}, false
	}
	return at.at["dir"].value.problem(fmt.Sprintf("%q in %s must stay inside the project root, but it leads to %s through a symlink",
		"dir", what, realDir)), true
}

func validateGate(ng namedGate) []Problem {
	g := ng.Gate
	kind := valueOr(g.Kind, string(gates.KindCheck))
	if !slices.Contains(gateKinds, kind) {
		return nil // already reported; the checks below would only guess
	}
	var problems gateProblems
	for _, f := range fieldsOf(reflect.TypeFor[rawGate]()) {
		if only := f.tag.Get("only"); only != "" && only != kind && g.has(f.name) {
			problems.add(g.keyPos(f.name), "%q is only for %s gates; gate %q is a %s gate", f.name, only, ng.Name, kind)
		}
	}
	switch gates.Kind(kind) {
	case gates.KindCheck:
		validateCheckGate(ng, &problems)
	case gates.KindReview:
		validateReviewGate(ng, &problems)
	}
	return problems
}

// gateProblems collects what validateGate finds.
type gateProblems []Problem

func (ps *gateProblems) add(p pos, format string, args ...any) {
	*ps = append(*ps, p.problem(fmt.Sprintf(format, args...)))
}

// validateCheckGate checks what a check gate runs: a command, one way, and {files} where the
// keys that shape it are set.
func validateCheckGate(ng namedGate, problems *gateProblems) {
	g := ng.Gate
	switch {
	case g.has("run") && g.has("argv"):
		problems.add(later(g.keyPos("run"), g.keyPos("argv")), `"run" and "argv" are both set in gate %q; keep one`, ng.Name)
	case !g.has("run") && !g.has("argv"):
		problems.add(ng.at, `gate %q needs "run" (a shell command) or "argv" (a command as a list)`, ng.Name)
	}
	if g.has("shell") && g.has("argv") {
		problems.add(g.keyPos("shell"), `"shell" is for "run" commands; gate %q has "argv", which runs without a shell`, ng.Name)
	}
	if g.has("glob") && !usesFiles(g.Run, g.Argv) {
		problems.add(g.keyPos("glob"), `"glob" narrows the files {files} gives; gate %q's command does not name {files}`, ng.Name)
	}
	if why := filesProblem(g.Run, g.Argv); why != "" {
		problems.add(g.keyPos(commandKey(g.Argv)), "gate %q: %s", ng.Name, why)
	}
}

// validateReviewGate checks that a review gate names its reviewer and one prompt.
func validateReviewGate(ng namedGate, problems *gateProblems) {
	g := ng.Gate
	if !g.has("cli") {
		problems.add(ng.at, `review gate %q needs "cli" (claude, codex, gemini or a command that reads the prompt on stdin)`, ng.Name)
	}
	if g.has("prompt") && g.has("prompt_file") {
		problems.add(later(g.keyPos("prompt"), g.keyPos("prompt_file")), `"prompt" and "prompt_file" are both set in gate %q; keep one`, ng.Name)
	}
}

// later picks the key a user most likely added second, which is the one to point at.
func later(a, b pos) pos {
	if a.file == b.file && a.before(b) {
		return b
	}
	return a
}

func valueOr[T any](p *T, fallback T) T {
	if p == nil {
		return fallback
	}
	return *p
}
