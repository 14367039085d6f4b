package integrity

import (
	"path"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

var (
	// goEnvWrite is a `go env -w` command and what follows it on the line.
	goEnvWrite = lazy(`\bgo\s+env\s+((?:-\S+\s+)*-w\b.*)`)
	goEnvVar   = lazy(`\b([A-Z][A-Z0-9_]*)=`)
)

// moduleSourceVars say where modules come from, not what the gates check: writing them is setup.
var moduleSourceVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GOPROXY": true, "GOINSECURE": true, "GOAUTH": true, "GOSUMDB": true,
	}
})

// runsCommands says whether a file holds commands the checks may run: a makefile, a shell script,
// package.json's scripts, a workflow, a justfile or a Taskfile.
func runsCommands(p string) bool {
	base := path.Base(p)
	switch {
	case isMakefile(p), isWorkflow(p), base == "package.json", base == "justfile", base == "Justfile", base == ".justfile",
		base == "Taskfile.yml", base == "Taskfile.yaml":
		return true
	}
	ext := path.Ext(base)
	return ext == ".sh" || ext == ".bash"
}

// isMakefile says whether make reads the file as a makefile: by its name, or a .mk included one.
func isMakefile(p string) bool {
	base := path.Base(p)
	return base == "Makefile" || base == "makefile" || base == "GNUmakefile" || path.Ext(base) == ".mk"
}

// checkGoEnvWrites reports `go env -w` added where the checks run commands. It writes the go
// tool's own env file, so every later go command, the gates' included, runs with it, and no
// gate's command shows it. A command the change removes elsewhere (moved) is not new.
func (j *judge) checkGoEnvWrites() {
	moved := tally{}
	var hits []goEnvHit
	for _, f := range j.files {
		if notOurs(f.Path) || !runsCommands(f.Path) && !runsCommands(f.OldPath) {
			continue
		}
		goEnvWritesRemoved(f, moved)
		if !f.Deleted {
			hits = append(hits, goEnvWritesAdded(f)...)
		}
	}
	for _, h := range hits {
		if !moved.take(h.key) {
			j.add(gates.RuleScriptNeutered, h.file, h.line, "go env -w %s added: it writes the go tool's own settings, so every later go command, the gates' included, runs with them unseen",
				strings.Join(h.vars, ", "))
		}
	}
}

// goEnvWritesRemoved counts the `go env -w` commands a file loses, by their text.
func goEnvWritesRemoved(f File, moved tally) {
	for _, l := range f.Removed {
		if m := goEnvWrite.FindStringSubmatch(l.Text); m != nil {
			moved[normalize(m[1])]++
		}
	}
}

// goEnvHit is a `go env -w` a file's change adds: its text, for pairing with one removed, and
// the variables it sets that decide what the gates check.
type goEnvHit struct {
	key, file string
	line      int
	vars      []string
}

func goEnvWritesAdded(f File) []goEnvHit {
	var hits []goEnvHit
	for _, l := range f.Added {
		m := goEnvWrite.FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		if vars := checkedGoVars(m[1]); len(vars) > 0 {
			hits = append(hits, goEnvHit{normalize(m[1]), f.Path, l.N, vars})
		}
	}
	return hits
}

// checkedGoVars are the variables a `go env -w` sets, but those saying where modules come from.
func checkedGoVars(args string) []string {
	var vars []string
	for _, v := range goEnvVar.FindAllStringSubmatch(args, -1) {
		if !moduleSourceVars()[v[1]] {
			vars = append(vars, v[1])
		}
	}
	return vars
}

// tally counts keys, to pair each with one of its kind later: a text the change removes with
// the same text added elsewhere (moved, not new), a test removed with one added.
type tally map[string]int

// take says whether a key is left to pair with, and uses it up.
func (m tally) take(key string) bool {
	if m[key] > 0 {
		m[key]--
		return true
	}
	return false
}
