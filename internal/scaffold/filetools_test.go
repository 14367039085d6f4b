package scaffold

import (
	"slices"
	"strings"
	"testing"
)

func TestFileToolCommandsKeepFlagsAndScope(t *testing.T) {
	cases := []struct {
		cmd, run       string
		paths, exclude []string
	}{
		{cmd: "shellcheck -x -e SC1091 scripts/*.sh install.sh", run: "shellcheck -x -e SC1091 {files}",
			paths: []string{"scripts/*.sh", "install.sh"}},
		{cmd: "shellcheck --format=gcc -S warning ./a.sh", run: "shellcheck -S warning {files}", paths: []string{"a.sh"}},
		{cmd: "markdownlint -i node_modules --config .mdl.json docs README.md", run: "markdownlint --config .mdl.json {files}",
			paths: []string{"docs/**", "README.md"}, exclude: []string{"node_modules", "node_modules/**"}},
		{cmd: `markdownlint-cli2 --fix "**/*.md" "#vendor/**"`, run: "markdownlint-cli2 {files}",
			paths: []string{"**/*.md"}, exclude: []string{"vendor/**"}},
	}
	for _, tc := range cases {
		c, ok := classify(splitCommands(tc.cmd)[0].words)
		if !ok {
			t.Errorf("%s: not read", tc.cmd)
			continue
		}
		if run := strings.Join(quoteAll(c.words), " "); run != tc.run || !slices.Equal(c.filePaths, tc.paths) ||
			!slices.Equal(c.fileExclude, tc.exclude) {
			t.Errorf("%s: run %q paths %q exclude %q, want %q %q %q", tc.cmd, run, c.filePaths, c.fileExclude, tc.run, tc.paths, tc.exclude)
		}
	}
}

// A scope init cannot read as the tool does is no gate: one wider than the project's could fail
// on a clean tree.
func TestFileToolCommandsWithUnreadScopeAreNoChecks(t *testing.T) {
	for _, cmd := range []string{
		"shellcheck **/*.sh",          // the shell's ** is one folder deep without globstar
		"shellcheck $(git ls-files)",  // files from a command's output
		"shellcheck $SCRIPTS",         // a variable
		"shellcheck -S $LEVEL a.sh",   // a flag's value from a variable
		"shellcheck ../other/a.sh",    // outside the folder
		"shellcheck scripts/{a,b}.sh", // braces
		"shellcheck -",                // standard input
		"markdownlint -s",             // standard input
		"shellcheck -x",               // no file at all
	} {
		if c, ok := classify(splitCommands(cmd)[0].words); ok {
			t.Errorf("%s: read as %q %q", cmd, c.words, c.filePaths)
		}
	}
}
