package census

import (
	"slices"
	"strings"
)

// Runners behind a script. A gate that runs `npm test` or `make test` names no runner: the
// runner is in package.json or the Makefile, which gauntlet never edits. Each runner is asked
// from outside instead, through what it reads of its own accord: node's NODE_OPTIONS, pytest's
// PYTEST_ADDOPTS. vitest and jest read their reporters only from their command line or their
// config file; npm passes the arguments after a "--" on to the end of the script, which reaches
// them only when they are the script's last command.

// PassOn says how arguments added at the end of a gate's command reach the last command of the
// package script it runs: not at all, after a "--" (npm, which reads the words before it as its
// own), or as they are (pnpm and yarn pass every word after the script's name on, a "--" too,
// which vitest would read as the end of its options).
type PassOn int

const (
	PassNone PassOn = iota
	PassAfterSeparator
	PassAsIs
)

// ViaScript is r, the request for a runner a script runs, made from outside the script; the
// reason it cannot be when it cannot. pass says how the caller can pass arguments on to the end
// of the script, the runner being its last command.
func ViaScript(r Request, pass PassOn) (Request, string) {
	if r.Problem != "" {
		return Request{}, r.Problem
	}
	out := Request{Runner: r.Runner, Format: r.Format, File: r.File, Display: r.Display}
	switch r.Runner {
	case "node --test":
		if r.Display != DisplayNodeTAP {
			return Request{}, "the script's node --test names its own reporter, which NODE_OPTIONS's would join"
		}
		out.Env = []string{"NODE_OPTIONS=" + envWords(r.Args)}
	case "pytest":
		if len(r.Args) == 0 {
			return Request{}, "the script's pytest writes its own report (" + r.File + "), which is not gauntlet's to read"
		}
		out.Env = []string{"PYTEST_ADDOPTS=" + envWords(r.Args)}
	case "vitest", "jest":
		if len(r.Args) == 0 {
			return Request{}, "the script's " + r.Runner + " writes its own report (" + r.File + "), which is not gauntlet's to read"
		}
		if pass == PassNone {
			return Request{}, r.Runner + " reads its reporters only from its command line or its config file, and the script runs it " +
				"where arguments given to the package manager do not reach it (not a package script, or not the script's last command)"
		}
		out.Args, out.Trailing = r.Args, pass
	default:
		return Request{}, r.Runner + " reads no environment variable that asks for its report"
	}
	return out, ""
}

// envWords joins arguments into a variable's value that the runner splits back into them.
func envWords(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = EnvWord(a)
	}
	return strings.Join(words, " ")
}

// EnvWord is one argument as NODE_OPTIONS and PYTEST_ADDOPTS read one: as it is, or in double
// quotes with quotes and backslashes escaped when it holds a space or a quote (the run's
// directory may).
func EnvWord(a string) string {
	if !strings.ContainsAny(a, " \t\n\"'\\") {
		return a
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a) + `"`
}

// applyTrailing puts the trailing requests' arguments at the end of c: for npm after a "--"
// unless the command already passes arguments on, for pnpm and yarn as they are.
func applyTrailing(c Command, reqs []Request, file func(i int) string, quote func(string) string) Command {
	var args []string
	separate := false
	for i, r := range reqs {
		if r.Trailing == PassNone {
			continue
		}
		separate = separate || r.Trailing == PassAfterSeparator
		for _, a := range r.Args {
			args = append(args, strings.ReplaceAll(a, FilePlaceholder, file(i)))
		}
	}
	if len(args) == 0 {
		return c
	}
	if c.Argv != nil {
		if separate && !slices.Contains(c.Argv, "--") {
			args = append([]string{"--"}, args...)
		}
		c.Argv = append(slices.Clone(c.Argv), args...)
		return c
	}
	words := shellCommands(c.Shell)
	if separate && (len(words) == 0 || !slices.ContainsFunc(words[len(words)-1], func(w cmdWord) bool { return w.text == "--" })) {
		args = append([]string{"--"}, args...)
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(c.Shell, " \t\n"))
	for _, a := range args {
		b.WriteString(" " + quote(a))
	}
	c.Shell = b.String()
	return c
}

// Commands is the words of each simple command of c, quotes removed: what a script runs, in
// order.
func Commands(c Command) [][]string {
	var out [][]string
	for _, ws := range commandWords(c) {
		words := make([]string, len(ws))
		for i, w := range ws {
			words[i] = w.text
		}
		out = append(out, words)
	}
	return out
}
