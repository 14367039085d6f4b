package scaffold

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
)

// header tells whoever opens the file what it is for and how to use it.
const header = `# gauntlet: this repository's quality gates. They run in parallel and end in one verdict.
#
#   gauntlet run            run the gates the current change touches
#   gauntlet run --all      run every gate
#   gauntlet run NAME       run one gate
#   gauntlet fix            run the fixers of the gates that failed, then those gates again
#   gauntlet validate       check this file
#
# A gate is a command that exits 0 when all is well; its fix, when it has one, is the command
# that repairs what it finds. Per gate you can also set, among others, paths (run only when a
# matching file changed), severity: warn (report without failing), hint (advice shown with a
# failure) and needs (gates or setup steps to run first). Personal overrides go in
# .gauntlet.local.yml.
`

// stopHookSection shows the agent-facing knobs with their defaults, commented out.
const stopHookSection = `# When a coding agent is gated (gauntlet stop-hook), this bounds how long it can be held:
# stop_hook:
#   max_attempts: 3   # blocks per session before the agent may stop anyway
#   timeout: 9m       # the whole hook; keep it below the agent host's hook timeout (10m)
`

// stopHookRaised is the stop_hook section when the slowest gate would not fit in the default.
const stopHookRaised = `# When a coding agent is gated (gauntlet stop-hook), this bounds how long it can be held. The
# slowest gate (%s, timeout %s) would not fit in the default %s, so the hook waits longer;
# gauntlet init installs the agent host's hook with a timeout above it. Lower both together.
stop_hook:
  timeout: %s
#   max_attempts: 3   # blocks per session before the agent may stop anyway
`

// skeleton is the gates section when nothing was detected: valid as it is, with an example.
const skeleton = `# No project was detected (go.mod, package.json, pyproject.toml, requirements*.txt,
# Cargo.toml, pom.xml, build.gradle or a Makefile with test, lint or check targets). Add a gate
# per check, e.g.:
#
#   test:
#     run: make test          # or argv: [make, test] to run without a shell
#     timeout: 5m
#     paths: ["src/**"]       # run only when something under src/ changed
#     hint: "Run make test and fix what fails."
gates: {}
`

// Render writes the commented .gauntlet.yml for the detected projects; with no gates it is a
// skeleton that is still a valid config.
func Render(projects []Project) []byte {
	var b strings.Builder
	b.WriteString(header)
	if labels := projectLabels(projects); labels != "" {
		b.WriteString("#\n# Started by `gauntlet init` for: " + labels + ".\n")
	}
	b.WriteString("\nversion: 1\n\n")
	b.WriteString("# Default per-gate timeout; a gate's own timeout wins.\n")
	b.WriteString("timeout: " + formatDuration(config.DefaultTimeout) + "\n\n")
	gates := Layout(projects)
	writeStopHook(&b, gates)
	b.WriteString("\n")
	for _, p := range projects {
		for _, n := range p.Notes {
			writeComment(&b, "", p.Label()+": "+n)
		}
	}
	writeGates(&b, projects, gates)
	writeOffers(&b, projects, len(gates))
	return []byte(b.String())
}

// writeStopHook writes the stop hook's section: commented out, or its timeout raised for the
// slowest gate.
func writeStopHook(b *strings.Builder, gates []Gate) {
	if hook := StopHookTimeout(gates); hook.Raised {
		fmt.Fprintf(b, stopHookRaised, hook.Slowest.Name, formatDuration(hook.Slowest.Timeout),
			formatDuration(config.DefaultStopHookTimeout), formatDuration(hook.Timeout))
		return
	}
	b.WriteString(stopHookSection)
}

// writeGates writes the gates, laid out (gates) in the projects' order, or a skeleton when
// there are none.
func writeGates(b *strings.Builder, projects []Project, gates []Gate) {
	if len(gates) == 0 {
		b.WriteString(skeleton)
		return
	}
	b.WriteString("gates:\n")
	i := 0
	for _, p := range projects {
		for range p.Gates {
			if i > 0 {
				b.WriteByte('\n')
			}
			writeGate(b, p, gates[i])
			i++
		}
	}
}

// offersHeader introduces the checks init would suggest but the project runs nowhere.
const offersHeader = `
  # Not gated: checks gauntlet would suggest, which the project runs nowhere (no CI job, hook,
  # task or script runs them), so they may fail on code its maintainers accept. Uncomment one to
  # gate it.
`

// writeOffers writes the offered gates commented out, each ready to be uncommented under gates:
// named as Layout would name them beside the real gates.
func writeOffers(b *strings.Builder, projects []Project, gated int) {
	all := slices.Clone(projects)
	for _, p := range projects {
		if len(p.Offers) > 0 {
			all = append(all, Project{Dir: p.Dir, Kind: p.Kind, Tool: p.Tool, Gates: p.Offers})
		}
	}
	if len(all) == len(projects) {
		return
	}
	laid := Layout(all)[gated:]
	b.WriteString(offersHeader)
	i := 0
	for _, p := range all[len(projects):] {
		for range p.Gates {
			writeCommentedGate(b, p, laid[i])
			i++
		}
	}
}

// writeCommentedGate writes a gate commented out, ready to be uncommented under gates:.
func writeCommentedGate(b *strings.Builder, p Project, g Gate) {
	var out strings.Builder
	out.WriteByte('\n')
	writeGate(&out, p, g)
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if line == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("  #" + strings.TrimPrefix(line, " ") + "\n")
	}
}

func projectLabels(projects []Project) string {
	var labels []string
	for _, p := range projects {
		if len(p.Gates) > 0 {
			labels = append(labels, p.Label())
		}
	}
	return strings.Join(labels, ", ")
}

func writeGate(b *strings.Builder, p Project, g Gate) {
	writeComment(b, "  ", p.Label()+": "+g.Comment+".")
	for _, note := range []string{g.Source, g.EnvNote, g.CacheNote, g.FilesNote} {
		if note != "" {
			writeComment(b, "  ", note)
		}
	}
	fmt.Fprintf(b, "  %s:\n", g.Name)
	fmt.Fprintf(b, "    run: %s\n", yamlString(g.Run))
	for _, write := range gateFields {
		write(b, g)
	}
}

// gateFields write a gate's keys after run:, in order, each only when it is set.
var gateFields = []func(b *strings.Builder, g Gate){
	func(b *strings.Builder, g Gate) { scalarField(b, "format", g.Format) },
	func(b *strings.Builder, g Gate) { scalarField(b, "fix", g.Fix) },
	func(b *strings.Builder, g Gate) { listField(b, "needs", g.Needs) },
	func(b *strings.Builder, g Gate) { scalarField(b, "dir", g.Dir) },
	writeGateEnv,
	func(b *strings.Builder, g Gate) { listField(b, "paths", g.Paths) },
	func(b *strings.Builder, g Gate) { listField(b, "exclude", g.Exclude) },
	func(b *strings.Builder, g Gate) { listField(b, "glob", g.Glob) },
	writeGateCache,
	writeGateTimeout,
	writeGateTests,
	func(b *strings.Builder, g Gate) { scalarField(b, "coverage", g.Coverage) },
	writeGateHint,
}

// scalarField writes `key: value` when value is set.
func scalarField(b *strings.Builder, key, value string) {
	if value != "" {
		fmt.Fprintf(b, "    %s: %s\n", key, yamlString(value))
	}
}

// listField writes `key: [a, b]` when the list has items.
func listField(b *strings.Builder, key string, items []string) {
	if len(items) > 0 {
		fmt.Fprintf(b, "    %s: %s\n", key, yamlFlowList(items))
	}
}

func writeGateEnv(b *strings.Builder, g Gate) {
	if len(g.Env) == 0 {
		return
	}
	b.WriteString("    env:\n")
	for _, e := range g.Env {
		fmt.Fprintf(b, "      %s: %s\n", yamlString(e.Name), yamlString(e.Value))
	}
}

func writeGateCache(b *strings.Builder, g Gate) {
	if len(g.Inputs) > 0 {
		fmt.Fprintf(b, "    cache: true\n")
		fmt.Fprintf(b, "    inputs: %s\n", yamlFlowList(g.Inputs))
	}
}

func writeGateTimeout(b *strings.Builder, g Gate) {
	if g.Timeout > 0 {
		fmt.Fprintf(b, "    timeout: %s\n", formatDuration(g.Timeout))
	}
}

func writeGateTests(b *strings.Builder, g Gate) {
	if g.Tests != "" {
		writeComment(b, "    ", g.TestsNote)
		fmt.Fprintf(b, "    tests: %s\n", yamlString(g.Tests))
	}
}

// writeGateHint writes the hint, saying the folder it is about when the gate runs in one.
func writeGateHint(b *strings.Builder, g Gate) {
	if g.Hint == "" {
		return
	}
	hint := g.Hint
	if g.Dir != "" {
		hint = "In " + g.Dir + "/: " + strings.ToLower(hint[:1]) + hint[1:]
	}
	fmt.Fprintf(b, "    hint: %s\n", yamlString(hint))
}

// writeComment writes text as comment lines; a line break in text (from a folder name or an
// error message) must not end the comment and start YAML.
func writeComment(b *strings.Builder, indent, text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(strings.ReplaceAll(line, "\r", " "), " ")
		for _, l := range wrap(line, commentWidth-len(indent)-2) {
			b.WriteString(indent + "# " + l + "\n")
		}
	}
}

// commentWidth is where comments wrap, so that the file reads without side-scrolling.
const commentWidth = 100

// wrap breaks text at spaces into lines of at most width bytes; a longer word stays whole.
func wrap(text string, width int) []string {
	if len(text) <= width {
		return []string{text}
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// formatDuration writes whole minutes as "5m" rather than Go's "5m0s".
func formatDuration(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
