package config

import (
	"fmt"
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// rawSetup is one setup step: a command that gates name in `needs` (an install, a code
// generator), run at most once per run and only for the gates that need it. It takes the keys of
// a check gate that say how to run a command and when its result still holds; the keys that
// decide whether a gate runs (paths, when, enabled) belong to the gates that need it.
type rawSetup struct {
	positions
	Run            *string   `yaml:"run" nonempty:"true"`
	Argv           []string  `yaml:"argv" nonempty:"true"`
	Dir            *string   `yaml:"dir" format:"reldir"`
	Env            envMap    `yaml:"env"`
	Timeout        *duration `yaml:"timeout"`
	Inputs         []string  `yaml:"inputs" format:"glob"`
	Cache          *bool     `yaml:"cache"`
	Hint           *string   `yaml:"hint"`
	InfraExitCodes []int     `yaml:"infra_exit_codes" min:"0" max:"255"`
	InfraPatterns  []string  `yaml:"infra_patterns" format:"regexp"`
	Causes         *bool     `yaml:"causes"`
}

// setupMap keeps setup steps in file order, the order they start in when several are needed.
type setupMap []namedSetup

type namedSetup struct {
	Name string
	Step *rawSetup
	at   pos
}

func (m setupMap) find(name string) *namedSetup {
	for i := range m {
		if m[i].Name == name {
			return &m[i]
		}
	}
	return nil
}

func (m *setupMap) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	*m = setupMap{}
	return d.decodeNamed(n, s, "setup step", "setup steps", func(name string, body *yaml.Node, at pos, keep bool) {
		st := &rawSetup{}
		if body != nil {
			d.decodeStruct(body, reflect.ValueOf(st).Elem(), fmt.Sprintf("setup step %q", name))
		}
		if keep {
			*m = append(*m, namedSetup{Name: name, Step: st, at: at})
		}
	})
}

// validateSetup checks what depends on several keys of a step, or on the project on disk.
func validateSetup(steps setupMap, root string) []Problem {
	var problems []Problem
	for _, ns := range steps {
		st := ns.Step
		switch {
		case st.has("run") && st.has("argv"):
			problems = append(problems, st.keyPos(commandKey(st.Argv)).problem(
				fmt.Sprintf(`"run" and "argv" are both set in setup step %q; keep one`, ns.Name)))
		case !st.has("run") && !st.has("argv"):
			problems = append(problems, ns.at.problem(
				fmt.Sprintf(`setup step %q needs "run" (a shell command) or "argv" (a command as a list)`, ns.Name)))
		}
		if usesFiles(st.Run, st.Argv) {
			problems = append(problems, later(st.keyPos("run"), st.keyPos("argv")).problem(
				fmt.Sprintf(`setup step %q names {files}, which only gates can: a step runs once for every gate that needs it`, ns.Name)))
		}
		if p, ok := dirEscapes(fmt.Sprintf("setup step %q", ns.Name), st.Dir, &st.positions, root); ok {
			problems = append(problems, p)
		}
	}
	return problems
}

// mergeSetup applies a local override's setup steps by name, key by key, as gates are merged.
func mergeSetup(dst *setupMap, src setupMap) {
	for _, s := range src {
		base := dst.find(s.Name)
		if base == nil {
			*dst = append(*dst, s)
			continue
		}
		if s.Step.has("run") != s.Step.has("argv") {
			base.Step.Run, base.Step.Argv = nil, nil
			base.Step.clear("run")
			base.Step.clear("argv")
			if !s.Step.has("hint") {
				base.Step.Hint = nil
				base.Step.clear("hint")
			}
		}
		overlayStruct(reflect.ValueOf(base.Step).Elem(), reflect.ValueOf(s.Step).Elem())
	}
}

// resolveSetup makes a step a check gate marked Setup: the runner, the cache and the reports
// handle it like a gate, and the engine keeps it apart.
func resolveSetup(name string, st *rawSetup, c *Config) gates.Gate {
	return gates.Gate{
		Name:           name,
		Kind:           gates.KindCheck,
		Run:            valueOr(st.Run, ""),
		Argv:           st.Argv,
		Dir:            cleanDir(valueOr(st.Dir, "")),
		Env:            append(append([]string(nil), c.Env...), st.Env.entries()...),
		Timeout:        time.Duration(valueOr(st.Timeout, duration(c.Timeout))),
		TimeoutFrom:    c.timeoutFrom(st.Timeout != nil),
		Severity:       gates.SeverityError,
		OnTimeout:      gates.StatusFail,
		InfraExitCodes: st.InfraExitCodes,
		InfraPatterns:  compileAll(st.InfraPatterns),
		Hint:           valueOr(st.Hint, ""),
		When:           gates.WhenAlways,
		Enabled:        true,
		Cache:          valueOr(st.Cache, c.Cache),
		Inputs:         st.Inputs,
		Causes:         valueOr(st.Causes, c.Causes),
		Setup:          true,
	}
}
