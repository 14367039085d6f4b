package integrity

import (
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// CommandPlace is what a finding about a shell command names as its file.
const CommandPlace = "(shell command)"

// hookSkippingEnv are variables that make the usual git hook managers skip their hooks (husky,
// lefthook, pre-commit) for the command they are set on.
var hookSkippingEnv = map[string]bool{"HUSKY": true, "HUSKY_SKIP_HOOKS": true, "LEFTHOOK": true, "SKIP": true}

// noVerifySubcommands are the git commands whose --no-verify skips the repository's hooks.
var noVerifySubcommands = []string{"commit", "push", "merge", "am", "rebase"}

// DetectCommand returns the ways a shell command an agent is about to run gets around the
// checks without touching a file: a git hook skipped (--no-verify, commit -n, core.hooksPath
// set or unset, a hook manager's skip variable) or a changed file hidden from git
// (update-index --assume-unchanged or --skip-worktree, which the stop reports as change-hidden
// once it happened). It is no shell: each simple command of the line is read on its own.
func DetectCommand(line string) []gates.IntegrityFinding {
	var found []gates.IntegrityFinding
	add := func(rule, format string, args ...any) {
		j := judge{}
		j.add(rule, CommandPlace, 0, format, args...)
		found = append(found, j.findings...)
	}
	for _, words := range shellCommands(line) {
		env, rest := leadingAssignments(words)
		if len(rest) == 0 || path0(rest[0]) != "git" {
			continue
		}
		sub, args, hooksPath := gitSubcommand(rest[1:])
		if hooksPath {
			add(gates.RuleHookWeakened, "git -c core.hooksPath=... runs git without the repository's hooks")
		}
		if v, ok := skippingEnv(env); ok && slices.Contains(noVerifySubcommands, sub) {
			add(gates.RuleHookWeakened, "%s set on git %s skips the repository's hooks", v, sub)
		}
		gitArgsFindings(sub, args, add)
	}
	return found
}

// gitArgsFindings reports what one git command's arguments get around.
func gitArgsFindings(sub string, args []string, add func(rule, format string, args ...any)) {
	switch {
	case slices.Contains(noVerifySubcommands, sub) && skipsVerify(sub, args):
		add(gates.RuleHookWeakened, "git %s --no-verify skips the repository's hooks", sub)
	case sub == "config" && setsHooksPath(args):
		add(gates.RuleHookWeakened, "git config changes core.hooksPath: the repository's hooks stop running")
	case sub == "update-index" && (slices.Contains(args, "--assume-unchanged") || slices.Contains(args, "--skip-worktree")):
		add(gates.RuleChangeHidden, "git update-index %s hides a file's changes from git, and so from the checks", hiddenFlag(args))
	}
}

func hiddenFlag(args []string) string {
	if slices.Contains(args, "--assume-unchanged") {
		return "--assume-unchanged"
	}
	return "--skip-worktree"
}

// path0 is a program's name without its directory: /usr/bin/git is git.
func path0(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// leadingAssignments splits NAME=value words off the front of a command (env, export aside).
func leadingAssignments(words []string) (env map[string]string, rest []string) {
	env = map[string]string{}
	for len(words) > 0 {
		w := words[0]
		if w == "env" || w == "export" {
			words = words[1:]
			continue
		}
		name, value, ok := strings.Cut(w, "=")
		if !ok || name == "" || strings.ContainsAny(name, "-/.$") {
			break
		}
		env[name] = value
		words = words[1:]
	}
	return env, words
}

// skippingEnv names a hook manager's skip variable set to skip, if env has one.
func skippingEnv(env map[string]string) (string, bool) {
	for name, v := range env {
		if !hookSkippingEnv[name] {
			continue
		}
		if (name == "HUSKY" || name == "LEFTHOOK") && v != "0" && v != "false" {
			continue
		}
		if v != "" {
			return name + "=" + v, true
		}
	}
	return "", false
}

// gitSubcommand reads git's own options up to its subcommand: it returns the subcommand, its
// arguments, and whether a -c set core.hooksPath.
func gitSubcommand(words []string) (sub string, args []string, hooksPath bool) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" && i+1 < len(words):
			i++
			hooksPath = hooksPath || isHooksPathSetting(words[i])
		case w == "-C" || w == "--git-dir" || w == "--work-tree" || w == "--namespace":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w, words[i+1:], hooksPath
		}
	}
	return "", nil, hooksPath
}

func isHooksPathSetting(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	return strings.EqualFold(name, "core.hooksPath")
}

// skipsVerify says whether git sub's args skip its hooks: --no-verify, or commit's -n alone or
// among short flags before one that takes a value (-nm "msg"; -mn is the message "n").
func skipsVerify(sub string, args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false
		case a == "--no-verify":
			return true
		case sub != "commit":
		case commitValueFlags[a]:
			i++ // its value: -m "-n" is a message
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			if shortNoVerify(a[1:]) {
				return true
			}
			if strings.ContainsRune("mFcCt", rune(a[len(a)-1])) {
				i++ // the cluster ends with a flag whose value is the next word
			}
		}
	}
	return false
}

// commitValueFlags are git commit's long flags that take the next word as their value.
var commitValueFlags = map[string]bool{
	"--message": true, "--file": true, "--author": true, "--date": true, "--template": true,
	"--reuse-message": true, "--reedit-message": true, "--fixup": true, "--squash": true, "--trailer": true,
}

// shortNoVerify reads a cluster of commit's short flags: n counts until a flag that takes the
// rest of the word as its value.
func shortNoVerify(cluster string) bool {
	for _, c := range cluster {
		switch {
		case c == 'n':
			return true
		case strings.ContainsRune("mFcCt", c):
			return false
		}
	}
	return false
}

// setsHooksPath says whether git config's args set or unset core.hooksPath (reading it is
// fine).
func setsHooksPath(args []string) bool {
	unset := false
	for i, a := range args {
		switch {
		case a == "--unset" || a == "--unset-all":
			unset = true
		case isHooksPathSetting(a) && !strings.Contains(a, "="):
			return unset || i+1 < len(args) && !strings.HasPrefix(args[i+1], "-")
		}
	}
	return false
}
