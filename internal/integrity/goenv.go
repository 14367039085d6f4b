package integrity

import (
	"path"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

var (
	// goEnvWrite is a `go env -w` command and what follows it on the line.
	goEnvWrite = lazy(`\bgo\s+env\s+((?:-\S+\s+)*-w\b.*)`)
	goEnvVar   = lazy(`\b([A-Z][A-Z0-9_]*)=`)
)

// moduleSourceVars say where modules come from, not what the gates check: writing them is setup.
var moduleSourceVars = map[string]bool{
	"GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GOPROXY": true, "GOINSECURE": true, "GOAUTH": true, "GOSUMDB": true,
}

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
	pool := map[string]int{}
	type hit struct {
		key, file string
		line      int
		vars      []string
	}
	var hits []hit
	for _, f := range j.files {
		if notOurs(f.Path) || !runsCommands(f.Path) && !runsCommands(f.OldPath) {
			continue
		}
		for _, l := range f.Removed {
			if m := goEnvWrite.FindStringSubmatch(l.Text); m != nil {
				pool[normalize(m[1])]++
			}
		}
		if f.Deleted {
			continue
		}
		for _, l := range f.Added {
			m := goEnvWrite.FindStringSubmatch(l.Text)
			if m == nil {
				continue
			}
			var vars []string
			for _, v := range goEnvVar.FindAllStringSubmatch(m[1], -1) {
				if !moduleSourceVars[v[1]] {
					vars = append(vars, v[1])
				}
			}
			if len(vars) > 0 {
				hits = append(hits, hit{normalize(m[1]), f.Path, l.N, vars})
			}
		}
	}
	for _, h := range hits {
		if pool[h.key] > 0 {
			pool[h.key]--
			continue
		}
		j.add(gates.RuleScriptNeutered, h.file, h.line, "go env -w %s added: it writes the go tool's own settings, so every later go command, the gates' included, runs with them unseen",
			strings.Join(h.vars, ", "))
	}
}
