package engine

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// What a gate's `npm test`, `pnpm run X`, `yarn X` or `make X` runs: the scripts of package.json
// and the recipes of the Makefile in the gate's directory, followed through the scripts and
// targets they call, down to the test runners they name. Those runners are asked for their
// census from outside the project's files (census.ViaScript); nothing in the project is edited.

// scriptDepth bounds how deep scripts calling scripts are followed; scriptFileLimit, how much of
// package.json or a Makefile is read.
const (
	scriptDepth     = 6
	scriptFileLimit = 1 << 20
	scriptReadTime  = 5 * time.Second
)

// PlanCensusIn is PlanCensus for a gate of the project at root: a test gate whose command names
// no runner is counted through the runners its package script or Makefile target runs.
func PlanCensusIn(g gates.Gate, root string) CensusPlan {
	plan := PlanCensus(g)
	if plan.Counted() || !isCheck(g) || g.Setup || g.Tests == gates.Off || len(census.Detect(commandOf(g))) > 0 {
		return plan
	}
	reqs, why := scriptCensus(commandOf(g), filepath.Join(root, g.Dir))
	if len(reqs) == 0 && why == "" {
		return plan
	}
	plan.TestGate = true
	if why == "" {
		why = uncountable(g, reqs)
	}
	if why != "" {
		plan.Uncounted, plan.Requests = why, nil
		return plan
	}
	plan.Uncounted, plan.Requests = "", reqs
	return plan
}

// scriptRunner is a runner a script runs: its request as the script's command would make it,
// how arguments added to the gate's command reach it (the last command of the script the gate
// runs), and the calls that lead to it, for the reason shown.
type scriptRunner struct {
	req  census.Request
	pass census.PassOn
	via  string
}

// scriptCensus is the requests for the runners the command's scripts run, made from outside,
// or why they cannot be; both empty when the command runs no script that runs a runner.
func scriptCensus(cmd census.Command, dir string) ([]census.Request, string) {
	sr := &scriptReader{dir: dir, deadline: time.Now().Add(scriptReadTime)}
	cmds := census.Commands(cmd)
	for _, words := range cmds {
		if call, ok := scriptCallOf(words); ok {
			pass := call.pass
			if len(cmds) > 1 {
				pass = census.PassNone
			}
			sr.follow(call, pass, call.String(), 0)
		}
	}
	if len(sr.found) == 0 {
		return nil, ""
	}
	var reqs []census.Request
	for _, f := range sr.found {
		if slices.ContainsFunc(reqs, func(r census.Request) bool { return r.Runner == f.req.Runner }) {
			return nil, f.via + " runs " + f.req.Runner + " twice, and one report file would hold only the last run"
		}
		r, why := census.ViaScript(f.req, f.pass)
		if why != "" {
			return nil, f.via + " runs " + f.req.Runner + ": " + why
		}
		reqs = append(reqs, r)
	}
	return reqs, ""
}

// scriptCall is a command that runs a package script or a make target, and how arguments
// added at the command's end reach the script (census.PassNone for make).
type scriptCall struct {
	tool string // npm, pnpm, yarn, make
	name string
	pass census.PassOn
}

func (c scriptCall) String() string {
	if c.tool == "npm" && c.name != "test" {
		return "npm run " + c.name
	}
	return c.tool + " " + c.name
}

// scriptCallOf reads a simple command as a script call: npm test, npm run X, pnpm [run] X,
// yarn [run] X, make X (the first target; make's -f and -C are not followed).
func scriptCallOf(words []string) (scriptCall, bool) {
	for len(words) > 0 && isAssignmentWord(words[0]) {
		words = words[1:]
	}
	if len(words) < 2 {
		return scriptCall{}, false
	}
	own := words[1:]
	if i := slices.Index(own, "--"); i >= 0 {
		own = own[:i] // the script's arguments, not the tool's
	}
	args := slices.DeleteFunc(slices.Clone(own), func(w string) bool { return strings.HasPrefix(w, "-") })
	switch tool := filepath.Base(words[0]); tool {
	case "make", "$(MAKE)", "${MAKE}", "gmake":
		return makeCall(own, args)
	case "npm", "pnpm", "yarn":
		call, ok := packageScriptCall(tool, args)
		call.pass = packagePassOn(tool, own)
		return call, ok
	}
	return scriptCall{}, false
}

// packagePassOn is how a package manager passes the words added after its command on to the
// script: npm those after a "--"; pnpm and yarn every word after the script's name, when no
// option of their own comes before it (pnpm -r, --filter: the script of other packages).
func packagePassOn(tool string, own []string) census.PassOn {
	switch {
	case tool == "npm":
		return census.PassAfterSeparator
	case len(own) > 0 && strings.HasPrefix(own[0], "-") || len(own) > 1 && own[0] == "run" && strings.HasPrefix(own[1], "-"):
		return census.PassNone
	}
	return census.PassAsIs
}

// makeCall is the target a make command's words (options kept in own, removed in args) run.
func makeCall(own, args []string) (scriptCall, bool) {
	elsewhere := func(w string) bool {
		return w == "-f" || w == "-C" || strings.HasPrefix(w, "--file") || strings.HasPrefix(w, "--directory")
	}
	args = slices.DeleteFunc(args, isAssignmentWord)
	if slices.ContainsFunc(own, elsewhere) || len(args) == 0 {
		return scriptCall{}, false
	}
	return scriptCall{tool: "make", name: args[0]}, true
}

// packageScriptCall is the script a package manager's arguments (options removed) run.
func packageScriptCall(tool string, args []string) (scriptCall, bool) {
	if len(args) == 0 {
		return scriptCall{}, false
	}
	switch args[0] {
	case "test", "t", "tst":
		return scriptCall{tool: tool, name: "test"}, true
	case "run", "run-script", "rum", "urn":
		if len(args) > 1 {
			return scriptCall{tool: tool, name: args[1]}, true
		}
		return scriptCall{}, false
	}
	if tool != "npm" {
		return scriptCall{tool: tool, name: args[0]}, true // pnpm lint, yarn lint
	}
	return scriptCall{}, false
}

func isAssignmentWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	return ok && k != "" && !strings.HasPrefix(w, "-")
}

// scriptReader follows script calls in one directory, reading package.json and the Makefile
// once each.
type scriptReader struct {
	dir      string
	deadline time.Time
	scripts  map[string]string
	makefile []byte
	read     map[string]bool
	found    []scriptRunner
}

// follow reads what call runs; pass says how arguments added to the gate's command reach its
// last command.
func (sr *scriptReader) follow(call scriptCall, pass census.PassOn, via string, depth int) {
	if depth > scriptDepth {
		return
	}
	bodies := sr.bodies(call)
	if len(bodies) != 1 {
		pass = census.PassNone
	}
	for i, body := range bodies {
		cmds := census.Commands(census.Command{Shell: body})
		for k, words := range cmds {
			reaches := census.PassNone
			if i == len(bodies)-1 && k == len(cmds)-1 {
				reaches = pass
			}
			if inner, ok := scriptCallOf(words); ok {
				// A package manager would read trailing arguments given to a script that calls
				// another as its own options: they reach only the first script's own commands.
				sr.follow(inner, census.PassNone, via, depth+1)
				continue
			}
			for _, r := range census.Detect(census.Command{Argv: words}) {
				sr.found = append(sr.found, scriptRunner{req: r, pass: reaches, via: via})
			}
		}
	}
}

// bodies are the command strings a call runs, in order: npm's pre and post scripts around the
// script; a target's prerequisites' recipes, then its own.
func (sr *scriptReader) bodies(call scriptCall) []string {
	if call.tool == "make" {
		return sr.recipes(call.name, 0)
	}
	scripts := sr.packageScripts()
	var out []string
	for _, name := range []string{"pre" + call.name, call.name, "post" + call.name} {
		if s := scripts[name]; s != "" {
			out = append(out, s)
		}
	}
	return out
}

// recipes are a make target's recipe lines, its prerequisites' first, each target once.
func (sr *scriptReader) recipes(target string, depth int) []string {
	if sr.read == nil {
		sr.read = map[string]bool{}
	}
	if depth > scriptDepth || sr.read[target] {
		return nil
	}
	sr.read[target] = true
	prereqs, recipe, ok := integrity.MakeTarget(sr.makefileData(), target)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range prereqs {
		out = append(out, sr.recipes(p, depth+1)...)
	}
	return append(out, recipe...)
}

// packageScripts are the scripts of the directory's package.json; none when it cannot be read.
func (sr *scriptReader) packageScripts() map[string]string {
	if sr.scripts != nil {
		return sr.scripts
	}
	sr.scripts = map[string]string{}
	data, err := safefile.ReadFile(filepath.Join(sr.dir, "package.json"), scriptFileLimit, sr.deadline)
	if err != nil {
		return sr.scripts
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return sr.scripts
	}
	for name, v := range pkg.Scripts {
		if s, ok := v.(string); ok {
			sr.scripts[name] = s
		}
	}
	return sr.scripts
}

// makefileData is the makefile make reads in the directory: GNUmakefile, makefile, then
// Makefile, the first that exists.
func (sr *scriptReader) makefileData() []byte {
	if sr.makefile != nil {
		return sr.makefile
	}
	sr.makefile = []byte{}
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		data, err := safefile.ReadFile(filepath.Join(sr.dir, name), scriptFileLimit, sr.deadline)
		if err == nil {
			sr.makefile = data
			break
		}
	}
	return sr.makefile
}
