package main

import "github.com/spf13/cobra"

// The root's help groups its commands by what a newcomer reaches for first, as gh does: the
// commands that do the work, those that look at what happened, the ones agent hosts call, and
// the rest.
const (
	groupCore    = "core"
	groupInspect = "inspect"
	groupAgent   = "agent"
	groupMore    = "more"
)

var commandGroups = []*cobra.Group{
	{ID: groupCore, Title: "Core commands:"},
	{ID: groupInspect, Title: "Inspect commands:"},
	{ID: groupAgent, Title: "Agent host commands:"},
	{ID: groupMore, Title: "More commands:"},
}

// commandGroup is the group of a root command by its name; every other command is in More.
func commandGroup(name string) string {
	switch name {
	case "run", "init", "fix":
		return groupCore
	case "status", "explain", "list", "doctor":
		return groupInspect
	case "stop-hook", "after-edit", "pre-edit":
		return groupAgent
	default:
		return groupMore
	}
}

// rootExample is what the root's help shows first under its synopsis: a first hour's commands.
const rootExample = `  gauntlet init                 # write .gauntlet.yml for this project and install the stop hook
  gauntlet run                  # run the gates the change touches
  gauntlet run --all            # run every gate
  gauntlet run test             # run one gate
  gauntlet explain              # why did the last run fail?`

// examples are each command's Examples section: the command lines a user copies first. A
// command that sets its own Example keeps it.
var examples = map[string]string{
	"run": `  gauntlet run                          # the gates the change touches (gates without paths always)
  gauntlet run --all                    # every gate
  gauntlet run test lint
  gauntlet run --timeout 20m            # the limit of each gate that sets no timeout of its own
  gauntlet run --format sarif=gauntlet.sarif --format junit=junit.xml
  gauntlet run --wait=5m                # wait for a run already in progress instead of failing`,
	"init": `  gauntlet init                         # shows each write first and asks
  gauntlet init --yes --host codex
  gauntlet init --no-hook               # only the config`,
	"fix": `  gauntlet fix                          # the fixers of the gates that failed last
  gauntlet fix lint`,
	"status": `  gauntlet status
  gauntlet status --json
  gauntlet status --html=history.html`,
	"explain": `  gauntlet explain                      # every gate that failed last
  gauntlet explain test
  gauntlet explain --json`,
	"list": `  gauntlet list
  gauntlet list --all --json
  gauntlet list --base origin/main`,
	"doctor": `  gauntlet doctor
  gauntlet doctor --host claude --no-run`,
	"stop-hook": `  # installed by gauntlet init; the host calls it with its JSON payload on stdin:
  echo '{"session_id":"s1","hook_event_name":"Stop"}' | gauntlet stop-hook
  gauntlet stop-hook --host codex`,
	"after-edit": `  # installed by gauntlet init; the host calls it after each edit:
  echo '{"session_id":"s1","hook_event_name":"PostToolUse"}' | gauntlet after-edit`,
	"pre-edit": `  # installed by gauntlet init; the host calls it before each edit or shell command:
  echo '{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit --no-verify"}}' | gauntlet pre-edit`,
	"baseline": `  gauntlet baseline                     # every new_only gate, at this commit
  gauntlet baseline lint`,
	"cache": `  gauntlet cache keygen`,
	"ci": `  gauntlet ci matrix --shards 4
  gauntlet ci matrix --max-minutes 10`,
	"clean":  `  gauntlet clean`,
	"report": `  gauntlet report merge shard-*.json --format junit=junit.xml`,
	"schema": `  gauntlet schema > gauntlet.schema.json`,
	"validate": `  gauntlet validate
  gauntlet validate -c ci/.gauntlet.yml`,
	"version": `  gauntlet version`,
}

// usageTemplate is cobra's, but for the root's synopsis: the root runs only to show its help,
// so "gauntlet [flags]" would teach nothing; it names a command.
const usageTemplate = `Usage:{{if not .HasParent}}
  {{.CommandPath}} <command> [flags]{{else}}{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Additional Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Additional help topics:{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} {{if .HasParent}}[command]{{else}}<command>{{end}} --help" for more information about a command.{{end}}
`

// setUpHelp gives the root its groups, examples and synopsis, and each of its commands its group.
// Called once the commands are added, on the whole tree and on the one-command tree alike: cobra
// refuses a command whose group the root does not define.
func setUpHelp(root *cobra.Command) {
	root.AddGroup(commandGroups...)
	root.Example = rootExample
	root.SetUsageTemplate(usageTemplate)
	for _, c := range root.Commands() {
		c.GroupID = commandGroup(c.Name())
		if c.Example == "" {
			c.Example = examples[c.Name()]
		}
	}
	root.SetHelpCommandGroupID(groupMore)
	root.SetCompletionCommandGroupID(groupMore)
}

// rootUsage is the synopsis printed under a mistake on the root's command line (an unknown or
// misspelt command).
const rootUsage = "Usage: gauntlet <command> [flags]\nRun 'gauntlet --help' for all commands.\n"
