package config

import (
	"errors"
	"strings"
	"testing"
)

// Each case is a whole config and the exact lines `gauntlet validate` must print for it.
func TestParseReportsEveryProblemWithPosition(t *testing.T) {
	long := strings.Repeat("a", 65)
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{"syntax error with a line", "version: 1\ngates:\n  vet:\n    run: [a\n", []string{
			".gauntlet.yml:4:1: invalid YAML: did not find expected ',' or ']'",
		}},
		{"syntax error in a block mapping", "version: 1\ngates:\n  vet:\n    run: x\n   argv: [y]\n", []string{
			".gauntlet.yml:5:1: invalid YAML: did not find expected key (check the indentation: the keys of one mapping start in the same column, indented with spaces)",
		}},
		{"syntax error after a multi-line list", "version: 1\ngates:\n  t:\n    argv: [a,\n      b]\n   run: x\n", []string{
			".gauntlet.yml:6:1: invalid YAML: did not find expected key (check the indentation: the keys of one mapping start in the same column, indented with spaces)",
		}},
		{"scanner error with a line", "version: 1\njobs: 2\nbase: main: x\n", []string{
			`.gauntlet.yml:3:1: invalid YAML: mapping values are not allowed in this context (a value holding ": " must be quoted: run: "echo 'a: b'")`,
		}},
		{"syntax error without a line", "\tversion: 1\n", []string{
			".gauntlet.yml:1:1: invalid YAML: found character that cannot start any token (tabs are not allowed for indentation in YAML; use spaces)",
		}},
		{"a tab indenting a key", "version: 1\ngates:\n  t:\n  \trun: x\n", []string{
			".gauntlet.yml:4:3: invalid YAML: found character that cannot start any token (tabs are not allowed for indentation in YAML; use spaces)",
		}},
		{"an unquoted *", "version: 1\ngates:\n  t:\n    run: x\n    paths: [*.go]\n", []string{
			`.gauntlet.yml:5:1: invalid YAML: did not find expected alphabetic or numeric character (a value starting with "*" or "&" must be quoted: "*.go")`,
		}},
		{"an unquoted @", "version: 1\ngates:\n  t:\n    run: @scripts/lint\n", []string{
			".gauntlet.yml:4:1: invalid YAML: found character that cannot start any token (a value starting with \"@\" or \"`\" must be quoted: \"@scripts/lint\")",
		}},
		{"a list item where a key was expected", "version: 1\ngates:\n  - t\n  u: 1\n", []string{
			".gauntlet.yml:4:1: invalid YAML: did not find expected '-' indicator (check the indentation: the keys of one mapping start in the same column, indented with spaces)",
		}},
		{"empty file", "", []string{
			`.gauntlet.yml:1:1: config file is empty; it needs at least "version: 1"`,
		}},
		{"only comments", "# nothing yet\n", []string{
			`.gauntlet.yml:1:1: config file is empty; it needs at least "version: 1"`,
		}},
		{"top level is a list", "- version: 1\n", []string{
			".gauntlet.yml:1:1: the config must be a mapping of keys such as version and gates, got a list",
		}},
		{"top level is a scalar", "version 1\n", []string{
			`.gauntlet.yml:1:1: the config must be a mapping of keys such as version and gates, got "version 1"`,
		}},
		{"two documents", "version: 1\n---\nversion: 1\n", []string{
			".gauntlet.yml:2:1: a config file holds one YAML document; remove the extra one",
		}},
		{"version missing", "jobs: 2\n", []string{
			`.gauntlet.yml:1:1: missing required key "version" (add "version: 1")`,
		}},
		{"version not 1", "version: 2\n", []string{
			`.gauntlet.yml:1:10: "version" must be 1, got 2`,
		}},
		{"version as a string", "version: \"1\"\n", []string{
			`.gauntlet.yml:1:10: "version" must be an integer, got "1"`,
		}},
		{"unknown top-level key with a suggestion", "version: 1\njob: 2\n", []string{
			`.gauntlet.yml:2:1: unknown key "job" (did you mean "jobs"?)`,
		}},
		{"unknown top-level key without a suggestion", "version: 1\ncolour: red\n", []string{
			`.gauntlet.yml:2:1: unknown key "colour"`,
		}},
		{"unknown stop_hook key", "version: 1\nstop_hook:\n  max_atempts: 2\n", []string{
			`.gauntlet.yml:3:3: unknown key "max_atempts" in stop_hook (did you mean "max_attempts"?)`,
		}},
		{"unknown gate key", "version: 1\ngates:\n  test:\n    run: go test\n    timout: 1m\n", []string{
			`.gauntlet.yml:5:5: unknown key "timout" in gate "test" (did you mean "timeout"?)`,
		}},
		{"string where an integer is expected", "version: 1\njobs: four\n", []string{
			`.gauntlet.yml:2:7: "jobs" must be an integer, got "four"`,
		}},
		{"float where an integer is expected", "version: 1\nkeep_runs: 1.5\n", []string{
			`.gauntlet.yml:2:12: "keep_runs" must be an integer, got 1.5`,
		}},
		{"word where a boolean is expected", "version: 1\nfail_fast: yes\n", []string{
			`.gauntlet.yml:2:12: "fail_fast" must be true or false, got "yes"`,
		}},
		{"number where a string is expected", "version: 1\ngates:\n  t:\n    run: x\n    hint: 42\n", []string{
			`.gauntlet.yml:5:11: "hint" in gate "t" must be a string, got 42 (quote it to use it as text)`,
		}},
		{"empty value where a string is expected", "version: 1\nbase:\n", []string{
			`.gauntlet.yml:2:6: "base" must be a string, got nothing`,
		}},
		{"blank base", "version: 1\nbase: \" \"\n", []string{
			`.gauntlet.yml:2:7: "base" must not be empty`,
		}},
		{"list where a mapping is expected", "version: 1\nenv: [A=1]\n", []string{
			`.gauntlet.yml:2:6: "env" must be a mapping of variable names to values, got a list`,
		}},
		{"stop_hook not a mapping", "version: 1\nstop_hook: [3]\n", []string{
			`.gauntlet.yml:2:12: "stop_hook" must be a mapping, got a list`,
		}},
		{"gates as a list", "version: 1\ngates:\n  - run: x\n", []string{
			`.gauntlet.yml:3:3: "gates" must be a mapping of gate names to gates, got a list`,
		}},
		{"gate body as a string", "version: 1\ngates:\n  vet: go vet ./...\n", []string{
			`.gauntlet.yml:3:8: gate "vet" must be a mapping of its keys (run, argv, timeout, ...), got "go vet ./..."`,
		}},
		{"mapping where a list is expected", "version: 1\ngates:\n  t:\n    run: x\n    paths: {a: b}\n", []string{
			`.gauntlet.yml:5:12: "paths" in gate "t" must be a list of strings, got a mapping`,
		}},
		{"non-string in argv", "version: 1\ngates:\n  t:\n    argv: [go, {x: 1}, 3]\n", []string{
			`.gauntlet.yml:4:16: item 2 of "argv" in gate "t" must be a string, got a mapping`,
			`.gauntlet.yml:4:24: item 3 of "argv" in gate "t" must be a string, got 3 (quote it to use it as text)`,
		}},
		{"duration without a unit", "version: 1\ntimeout: 10\n", []string{
			`.gauntlet.yml:2:10: "timeout" must be a duration such as 90s or 10m, got 10`,
		}},
		{"duration in words", "version: 1\ngates:\n  t:\n    run: x\n    timeout: 10 minutes\n", []string{
			`.gauntlet.yml:5:14: "timeout" in gate "t" must be a duration such as 90s or 10m, got "10 minutes"`,
		}},
		{"duration not positive", "version: 1\nstop_hook:\n  lock_wait: 0s\n  timeout: -1m\n", []string{
			`.gauntlet.yml:3:14: "lock_wait" in stop_hook must be positive, got "0s"`,
			`.gauntlet.yml:4:12: "timeout" in stop_hook must be positive, got "-1m"`,
		}},
		{"bad regexp", "version: 1\ngates:\n  t:\n    run: x\n    infra_patterns: [ok, \"(unclosed\"]\n", []string{
			".gauntlet.yml:5:26: item 2 of \"infra_patterns\" in gate \"t\" is not a valid regular expression: missing closing ): `(unclosed`",
		}},
		{"bad globs", "version: 1\ngates:\n  t:\n    run: x\n    paths: [\"[a\"]\n    exclude: [./vendor/**]\n", []string{
			`.gauntlet.yml:5:13: item 1 of "paths" in gate "t" is not a valid glob pattern: "[a"`,
			`.gauntlet.yml:6:15: item 1 of "exclude" in gate "t" must be relative to the project root without a leading "/" or "./", got "./vendor/**"`,
		}},
		{"ill-formed gate names", "version: 1\ngates:\n  Test:\n    run: x\n  -x:\n    run: x\n  " + long + ":\n    run: x\n", []string{
			`.gauntlet.yml:3:3: invalid gate name "Test": use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit`,
			`.gauntlet.yml:5:3: invalid gate name "-x": use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit`,
			`.gauntlet.yml:7:3: invalid gate name "` + long + `": use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit`,
		}},
		{"duplicate gate", "version: 1\ngates:\n  t:\n    run: x\n  t:\n    run: y\n    bogus: 1\n", []string{
			`.gauntlet.yml:5:3: duplicate gate "t" (first at line 3)`,
			`.gauntlet.yml:7:5: unknown key "bogus" in gate "t"`,
		}},
		{"duplicate top-level key", "version: 1\njobs: 2\njobs: 3\n", []string{
			`.gauntlet.yml:3:1: duplicate key "jobs" (first at line 2)`,
		}},
		{"duplicate gate key", "version: 1\ngates:\n  t:\n    run: x\n    run: y\n", []string{
			`.gauntlet.yml:5:5: duplicate key "run" in gate "t" (first at line 4)`,
		}},
		{"duplicate env variable", "version: 1\nenv:\n  A: 1\n  A: 2\n", []string{
			`.gauntlet.yml:4:3: duplicate env variable "A" (first at line 3)`,
		}},
		{"run and argv both set", "version: 1\ngates:\n  t:\n    run: go test\n    argv: [go, test]\n", []string{
			`.gauntlet.yml:5:5: "run" and "argv" are both set in gate "t"; keep one`,
		}},
		{"neither run nor argv", "version: 1\ngates:\n  t:\n    timeout: 1m\n  u:\n", []string{
			`.gauntlet.yml:3:3: gate "t" needs "run" (a shell command) or "argv" (a command as a list)`,
			`.gauntlet.yml:5:3: gate "u" needs "run" (a shell command) or "argv" (a command as a list)`,
		}},
		{"empty run and argv", "version: 1\ngates:\n  t:\n    run: \"  \"\n  u:\n    argv: []\n", []string{
			`.gauntlet.yml:4:10: "run" in gate "t" must not be empty`,
			`.gauntlet.yml:6:11: "argv" in gate "u" must not be empty`,
		}},
		{"dir absolute or escaping", "version: 1\ngates:\n  t:\n    run: x\n    dir: /tmp\n  u:\n    run: x\n    dir: a/../../b\n", []string{
			`.gauntlet.yml:5:10: "dir" in gate "t" must be relative to the project root, got "/tmp"`,
			`.gauntlet.yml:8:10: "dir" in gate "u" must stay inside the project root, got "a/../../b"`,
		}},
		{"tests: absolute, escaping, a bad glob, on a review gate", "version: 1\ngates:\n  t:\n    run: x\n    tests: /tmp/r.xml\n  u:\n    run: x\n    tests: ../r.xml\n  v:\n    run: x\n    tests: \"[a\"\n  r:\n    kind: review\n    cli: claude\n    tests: r.xml\n", []string{
			`.gauntlet.yml:5:12: "tests" in gate "t" must be relative to the project root without a leading "/" or "./", got "/tmp/r.xml"`,
			`.gauntlet.yml:8:12: "tests" in gate "u" must stay inside the project root, got "../r.xml"`,
			`.gauntlet.yml:11:12: "tests" in gate "v" is not a valid glob pattern: "[a"`,
			`.gauntlet.yml:15:5: "tests" is only for check gates; gate "r" is a review gate`,
		}},
		{"enum values", "version: 1\ngates:\n  t:\n    run: x\n    kind: lint\n  u:\n    run: x\n    severity: warning\n    on_timeout: pass\n    when: CI\n", []string{
			`.gauntlet.yml:5:11: "kind" in gate "t" must be one of check, review, todos, got "lint"`,
			`.gauntlet.yml:8:15: "severity" in gate "u" must be one of error, warn, got "warning" (did you mean "warn"?)`,
			`.gauntlet.yml:9:17: "on_timeout" in gate "u" must be one of fail, error, got "pass"`,
			`.gauntlet.yml:10:11: "when" in gate "u" must be one of always, local, ci, got "CI"`,
		}},
		{"shell: an unknown one, and with argv", "version: 1\ngates:\n  t:\n    run: x\n    shell: fish\n  u:\n    argv: [x]\n    shell: bash\n", []string{
			`.gauntlet.yml:5:12: "shell" in gate "t" must be one of sh, bash, cmd, pwsh, powershell, got "fish"`,
			`.gauntlet.yml:8:5: "shell" is for "run" commands; gate "u" has "argv", which runs without a shell`,
		}},
		{"review gate without cli", "version: 1\ngates:\n  review:\n    kind: review\n    prompt: look\n", []string{
			`.gauntlet.yml:3:3: review gate "review" needs "cli" (claude, codex, gemini or a command that reads the prompt on stdin)`,
		}},
		{"review keys on a check gate", "version: 1\ngates:\n  t:\n    run: x\n    model: opus\n    max_diff_bytes: 10\n", []string{
			`.gauntlet.yml:5:5: "model" is only for review gates; gate "t" is a check gate`,
			`.gauntlet.yml:6:5: "max_diff_bytes" is only for review gates; gate "t" is a check gate`,
		}},
		{"command keys on a review and a todos gate", "version: 1\ngates:\n  r:\n    kind: review\n    cli: claude\n    run: x\n  td:\n    kind: todos\n    argv: [x]\n", []string{
			`.gauntlet.yml:6:5: "run" is only for check gates; gate "r" is a review gate`,
			`.gauntlet.yml:9:5: "argv" is only for check gates; gate "td" is a todos gate`,
		}},
		// A self-judging gate's verdict is not read from an exit code or its output: these keys
		// would silently do nothing there.
		{"infra keys on a review and a todos gate", "version: 1\ngates:\n  r:\n    kind: review\n    cli: claude\n    infra_patterns: [quota]\n  td:\n    kind: todos\n    infra_exit_codes: [3]\n", []string{
			`.gauntlet.yml:6:5: "infra_patterns" is only for check gates; gate "r" is a review gate`,
			`.gauntlet.yml:9:5: "infra_exit_codes" is only for check gates; gate "td" is a todos gate`,
		}},
		{"causes on a review gate, and not a boolean", "version: 1\ncauses: maybe\ngates:\n  r:\n    kind: review\n    cli: claude\n    causes: false\n", []string{
			`.gauntlet.yml:2:9: "causes" must be true or false, got "maybe"`,
			`.gauntlet.yml:7:5: "causes" is only for check gates; gate "r" is a review gate`,
		}},
		{"prompt and prompt_file both set", "version: 1\ngates:\n  r:\n    kind: review\n    cli: claude\n    prompt_file: p.md\n    prompt: look\n", []string{
			`.gauntlet.yml:7:5: "prompt" and "prompt_file" are both set in gate "r"; keep one`,
		}},
		{"numbers out of range", "version: 1\njobs: 0\nkeep_runs: -1\nstop_hook:\n  max_attempts: 0\ngates:\n  r:\n    kind: review\n    cli: claude\n    max_diff_bytes: 0\n", []string{
			`.gauntlet.yml:2:7: "jobs" must be at least 1, got 0`,
			`.gauntlet.yml:3:12: "keep_runs" must be at least 0, got -1`,
			`.gauntlet.yml:5:17: "max_attempts" in stop_hook must be at least 1, got 0`,
			`.gauntlet.yml:10:21: "max_diff_bytes" in gate "r" must be at least 1, got 0`,
		}},
		{"reason_limit outside 1000..8000", "version: 1\nstop_hook:\n  reason_limit: 9000\n", []string{
			`.gauntlet.yml:3:17: "reason_limit" in stop_hook must be between 1000 and 8000, got 9000`,
		}},
		{"infra exit codes outside 0..255", "version: 1\ngates:\n  t:\n    run: x\n    infra_exit_codes: [1, 256, -1]\n", []string{
			`.gauntlet.yml:5:27: item 2 of "infra_exit_codes" in gate "t" must be between 0 and 255, got 256`,
			`.gauntlet.yml:5:32: item 3 of "infra_exit_codes" in gate "t" must be between 0 and 255, got -1`,
		}},
		{"integer too large", "version: 1\njobs: 99999999999999999999\n", []string{
			`.gauntlet.yml:2:7: "jobs" is out of range, got 99999999999999999999`,
		}},
		{"invalid env names", "version: 1\nenv:\n  1X: a\ngates:\n  t:\n    run: x\n    env: {A-B: c}\n", []string{
			`.gauntlet.yml:3:3: invalid env variable name "1X": use letters, digits and _, not starting with a digit`,
			`.gauntlet.yml:7:11: invalid env variable name "A-B" in gate "t": use letters, digits and _, not starting with a digit`,
		}},
		{"env value not a scalar", "version: 1\nenv:\n  A: [1]\n  B:\n", []string{
			`.gauntlet.yml:3:6: env variable "A" must be a string, got a list`,
			`.gauntlet.yml:4:5: env variable "B" must be a string, got nothing`,
		}},
		{"non-string key", "version: 1\n[a]: 1\n", []string{
			`.gauntlet.yml:2:1: keys must be strings, got a list`,
		}},
		{"anchor that merges itself", "version: 1\ngates:\n  t: &t\n    <<: *t\n    run: x\n", []string{
			`.gauntlet.yml:4:5: merge key << nests more than 8 levels deep (does an anchor merge itself?)`,
		}},
		{"merge key on a scalar", "version: 1\ngates:\n  t:\n    <<: 3\n    run: x\n", []string{
			`.gauntlet.yml:4:9: merge key << needs a mapping or a list of mappings, got 3`,
		}},
		{"needs an unknown gate", "version: 1\ngates:\n  build:\n    run: x\n  test:\n    run: x\n    needs: [biuld, lint]\n", []string{
			`.gauntlet.yml:7:13: gate "test" needs "biuld", which is no gate or setup step (did you mean "build"?)`,
			`.gauntlet.yml:7:20: gate "test" needs "lint", which is no gate or setup step`,
		}},
		{"needs itself", "version: 1\ngates:\n  a:\n    run: x\n    needs: [a]\n", []string{
			`.gauntlet.yml:5:13: gate "a" needs itself`,
		}},
		{"needs in a cycle", "version: 1\ngates:\n  a:\n    run: x\n    needs: [b]\n  b:\n    run: x\n    needs: [c]\n  c:\n    run: x\n    needs:\n      - a\n  d:\n    run: x\n    needs: [a]\n", []string{
			`.gauntlet.yml:12:9: gates need each other in a cycle, so none of them could start: a -> b -> c -> a`,
		}},
		{"two cycles", "version: 1\ngates:\n  a:\n    run: x\n    needs: [b]\n  b:\n    run: x\n    needs: [a]\n  c:\n    run: x\n    needs: [d]\n  d:\n    run: x\n    needs: [c]\n", []string{
			`.gauntlet.yml:8:13: gates need each other in a cycle, so none of them could start: a -> b -> a`,
			`.gauntlet.yml:14:13: gates need each other in a cycle, so none of them could start: c -> d -> c`,
		}},
		{"needs not a list of names", "version: 1\ngates:\n  a:\n    run: x\n    needs: b\n  c:\n    run: x\n    needs: [B, 3, a, a]\n", []string{
			`.gauntlet.yml:5:12: "needs" in gate "a" must be a list of gate or setup step names, got "b"`,
			`.gauntlet.yml:8:13: item 1 of "needs" in gate "c" must be a gate or setup step name (1 to 64 lowercase letters, digits, - and _), got "B"`,
			`.gauntlet.yml:8:16: item 2 of "needs" in gate "c" must be a gate or setup step name, got 3`,
			`.gauntlet.yml:8:22: item 4 of "needs" in gate "c" repeats "a" (item 3)`,
		}},
		{"setup steps", "version: 1\nsetup:\n  install:\n    timeout: 1m\n  gen:\n    run: x\n    argv: [y]\n  test:\n    run: x\n    paths: [a]\n  Bad: x\ngates:\n  test:\n    run: x\n    needs: [instal]\n", []string{
			`.gauntlet.yml:3:3: setup step "install" needs "run" (a shell command) or "argv" (a command as a list)`,
			`.gauntlet.yml:7:5: "run" and "argv" are both set in setup step "gen"; keep one`,
			`.gauntlet.yml:8:3: setup step "test" has the name of a gate; gates and setup steps share the names needs refers to`,
			`.gauntlet.yml:10:5: unknown key "paths" in setup step "test"`,
			`.gauntlet.yml:11:3: invalid setup step name "Bad": use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit`,
			`.gauntlet.yml:11:8: setup step "Bad" must be a mapping of its keys (run, argv, timeout, ...), got "x"`,
			`.gauntlet.yml:15:13: gate "test" needs "instal", which is no gate or setup step (did you mean "install"?)`,
		}},
		{"every problem, sorted by position", "jobs: 0\ngates:\n  B:\n    run: x\n    argv: [y]\nbogus: 1\n", []string{
			`.gauntlet.yml:1:1: missing required key "version" (add "version: 1")`,
			`.gauntlet.yml:1:7: "jobs" must be at least 1, got 0`,
			`.gauntlet.yml:3:3: invalid gate name "B": use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit`,
			`.gauntlet.yml:5:5: "run" and "argv" are both set in gate "B"; keep one`,
			`.gauntlet.yml:6:1: unknown key "bogus"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse(".gauntlet.yml", []byte(tt.yaml), "")
			if cfg != nil {
				t.Errorf("got a config despite errors")
			}
			var errs *Errors
			if !errors.As(err, &errs) {
				t.Fatalf("err = %v (%T), want *Errors", err, err)
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
