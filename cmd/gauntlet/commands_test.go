package main

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/report"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
)

// These tests run each command's flag handling in-process: the command gets streams in memory
// and a run function that only keeps the options, so no gate runs and no process starts.

var errRan = errors.New("ran")

// parsed runs one command line through the command newCmd builds and returns the options its
// run function received (nil when the command refused the line first), the exit code and stderr.
func parsed[O any](t *testing.T, newCmd func(*IOStreams, func(*O) error) *cobra.Command, env []string, args ...string) (opts *O, code int, stderr string) {
	t.Helper()
	ios, _, errOut := testStreams("", env, t.TempDir(), time.Unix(1_800_000_000, 0))
	cmd := newCmd(ios, func(o *O) error {
		opts = o
		return errRan
	})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetArgs(args)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	err := cmd.Execute()
	if errors.Is(err, errRan) {
		return opts, exitOK, errOut.String()
	}
	return opts, handleError(errOut, cmd, err), errOut.String()
}

// refused asserts that a command line is a usage error (exit 2) that says want, before the
// command's run function is reached.
func refused[O any](t *testing.T, newCmd func(*IOStreams, func(*O) error) *cobra.Command, want string, args ...string) {
	t.Helper()
	opts, code, stderr := parsed(t, newCmd, nil, args...)
	if opts != nil || code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("%q: ran=%v exit %d stderr %q, want exit 2 saying %q", args, opts != nil, code, stderr, want)
	}
}

func TestRunFlags(t *testing.T) {
	opts, code, _ := parsed(t, newRunCmd, nil)
	if code != exitOK {
		t.Fatalf("run without flags: exit %d", code)
	}
	if want := []report.Output{{Format: report.FormatText}}; !slices.Equal(opts.outputs, want) {
		t.Errorf("default outputs %v, want %v", opts.outputs, want)
	}
	if opts.color != "auto" || opts.jobsSet || opts.failFastSet || opts.timeoutSet || opts.all || opts.noCache {
		t.Errorf("defaults: %+v", opts)
	}

	opts, _, _ = parsed(t, newRunCmd, nil, "-j", "3", "--fail-fast", "--timeout", "2m", "--all", "--base", "main",
		"--no-cache", "-v", "--color", "never", "-c", "ci.yml", "--wait=30s", "lint", "test")
	want := runOptions{jobs: 3, jobsSet: true, failFast: true, failFastSet: true, timeout: 2 * time.Minute, timeoutSet: true,
		all: true, base: "main", noCache: true, verbose: true, color: "never", configFile: "ci.yml", wait: 30 * time.Second}
	got := *opts
	got.IO, got.outputs, got.names = nil, nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsed %+v\nwant     %+v", got, want)
	}
	if !slices.Equal(opts.names, []string{"lint", "test"}) {
		t.Errorf("names %q", opts.names)
	}

	refused(t, newRunCmd, "--jobs must be at least 1, got 0", "--jobs", "0")
	refused(t, newRunCmd, "--timeout must be a positive duration", "--timeout", "0s")
	refused(t, newRunCmd, `--color must be auto, always or never, got "purple"`, "--color", "purple")
	refused(t, newRunCmd, "unknown flag: --no-such-flag", "--no-such-flag")
}

// --shard auto reads the CI's variables from the command's environment, not the process's.
func TestRunShardFromInjectedEnvironment(t *testing.T) {
	opts, code, stderr := parsed(t, newRunCmd, []string{"GAUNTLET_SHARD=2/3"}, "--shard", "auto")
	if code != exitOK || opts.shard != (engine.Shard{K: 2, N: 3}) {
		t.Fatalf("exit %d (%s) shard %+v, want 2/3 from GAUNTLET_SHARD", code, stderr, opts.shard)
	}
	_, code, stderr = parsed(t, newRunCmd, nil, "--shard", "auto")
	if code != exitUsage || !strings.Contains(stderr, "no CI shard variables set") {
		t.Errorf("without CI variables: exit %d %q, want a usage error", code, stderr)
	}
	refused(t, newRunCmd, "shard", "--shard", "4/3")
}

func TestRunFormats(t *testing.T) {
	tests := []struct {
		args []string
		want []report.Output
	}{
		{[]string{"--format", "json"}, []report.Output{{Format: report.FormatJSON}}},
		{[]string{"--format", "json", "-o", "r.json"}, []report.Output{{Format: report.FormatJSON, Path: "r.json"}}},
		{[]string{"-o", "summary.txt"}, []report.Output{{Format: report.FormatText, Path: "summary.txt"}}},
		{
			[]string{"--format", "json=a.json", "--format", "sarif=b.sarif"},
			[]report.Output{{Format: report.FormatJSON, Path: "a.json"}, {Format: report.FormatSARIF, Path: "b.sarif"}},
		},
		{
			[]string{"--format", "text", "--format", "sarif=gauntlet.sarif", "--format", "junit=junit.xml", "--format", "json=a.json"},
			[]report.Output{{Format: report.FormatText}, {Format: report.FormatSARIF, Path: "gauntlet.sarif"},
				{Format: report.FormatJUnit, Path: "junit.xml"}, {Format: report.FormatJSON, Path: "a.json"}},
		},
		{
			[]string{"--format", "sarif=s.sarif", "--format", "json", "-o", "j.json"},
			[]report.Output{{Format: report.FormatSARIF, Path: "s.sarif"}, {Format: report.FormatJSON, Path: "j.json"}},
		},
		{[]string{"--format", "json=-"}, []report.Output{{Format: report.FormatJSON}}},
		// The same format twice to two files is two reports, not a conflict.
		{
			[]string{"--format", "json=a.json", "--format", "json=b.json"},
			[]report.Output{{Format: report.FormatJSON, Path: "a.json"}, {Format: report.FormatJSON, Path: "b.json"}},
		},
	}
	for _, tt := range tests {
		opts, code, stderr := parsed(t, newRunCmd, nil, tt.args...)
		if code != exitOK {
			t.Errorf("%q: exit %d %s", tt.args, code, stderr)
			continue
		}
		if !slices.Equal(opts.outputs, tt.want) {
			t.Errorf("%q: outputs %v, want %v", tt.args, opts.outputs, tt.want)
		}
	}
}

// Two reports to one destination are refused, never one silently replacing the other.
func TestRunFormatConflicts(t *testing.T) {
	tests := []struct {
		want string
		args []string
	}{
		{"--format json and --format sarif both go to stdout", []string{"--format", "json", "--format", "sarif"}},
		{"--format text and --format json both go to stdout", []string{"--format", "text", "--format", "json=-"}},
		{"--format json and --format sarif both write ./a.json", []string{"--format", "json=a.json", "--format", "sarif=./a.json"}},
		{"--format json and --format json both write a.json", []string{"--format", "json=a.json", "--format", "json=a.json"}},
		{"--format json and --format sarif both write a.json", []string{"--format", "json", "-o", "a.json", "--format", "sarif=a.json"}},
		{"-o r.json takes the one --format without a file", []string{"-o", "r.json", "--format", "json", "--format", "sarif"}},
		{"-o b.json: every --format already has its file", []string{"--format", "json=a.json", "-o", "b.json"}},
		{`--format: unknown format "xml" (want text, json, junit, github, sarif, html)`, []string{"--format", "xml"}},
		{`unknown format "xml"`, []string{"--format", "xml=r.xml"}},
		{"--format json=: no file after =", []string{"--format", "json="}},
	}
	for _, tt := range tests {
		refused(t, newRunCmd, tt.want, tt.args...)
	}
}

func TestStopHookFlags(t *testing.T) {
	opts, code, _ := parsed(t, newStopHookCmd, nil)
	if code != exitOK || opts.host != "" {
		t.Fatalf("default: exit %d host %q, want auto (\"\")", code, opts.host)
	}
	opts, _, _ = parsed(t, newStopHookCmd, nil, "--host", "codex")
	if opts.host != stophook.HostCodex {
		t.Errorf("--host codex: host %q", opts.host)
	}
	refused(t, newStopHookCmd, `--host must be auto, claude, codex, cursor, gemini, copilot, qwen, droid, got "vim"`, "--host", "vim")
	refused(t, newStopHookCmd, "unknown command", "extra")
}

func TestAfterEditAndJudgeFlags(t *testing.T) {
	opts, code, _ := parsed(t, newAfterEditCmd, nil, "--host", "gemini", "--session-end")
	if code != exitOK || opts.host != stophook.HostGemini || !opts.sessionEnd {
		t.Errorf("after-edit: exit %d %+v", code, opts)
	}
	// after-edit never fails the agent's tool call: an unknown host is detected from the payload.
	if opts, code, _ = parsed(t, newAfterEditCmd, nil, "--host", "vim"); code != exitOK || opts.host != "" {
		t.Errorf("after-edit --host vim: exit %d %+v", code, opts)
	}
	j, code, _ := parsed(t, newJudgeCmd, nil, "--root", "/r", "--host", "codex", "--session", "s1", "--transcript", "/t.jsonl", "--seq", "7")
	if code != exitOK || j.req.Root != "/r" || j.req.Host != stophook.HostCodex || j.req.Session != "s1" || j.req.Transcript != "/t.jsonl" || j.req.Seq != 7 {
		t.Errorf("judge: exit %d %+v", code, j)
	}
}

func TestReportMergeFlags(t *testing.T) {
	opts, code, stderr := parsed(t, newReportMergeCmd, nil, "a.json", "b.json", "--format", "junit=j.xml", "--format", "json", "--color", "always", "-c", "x.yml")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if !slices.Equal(opts.files, []string{"a.json", "b.json"}) || opts.color != "always" || opts.configFile != "x.yml" {
		t.Errorf("parsed %+v", opts)
	}
	want := []report.Output{{Format: report.FormatJUnit, Path: "j.xml"}, {Format: report.FormatJSON}}
	if !slices.Equal(opts.outputs, want) {
		t.Errorf("outputs %v, want %v", opts.outputs, want)
	}
	refused(t, newReportMergeCmd, "requires at least 1 arg", "--format", "json")
	refused(t, newReportMergeCmd, "both go to stdout", "a.json", "--format", "json", "--format", "junit")
	refused(t, newReportMergeCmd, "both write m.json", "a.json", "--format", "json=m.json", "--format", "sarif=m.json")
	refused(t, newReportMergeCmd, "--color must be", "a.json", "--color", "sometimes")
}

func TestDoctorFlags(t *testing.T) {
	opts, code, _ := parsed(t, newDoctorCmd, nil, "--host", "claude", "--host", "codex,gemini", "--json", "--no-run", "-c", "g.yml")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !slices.Equal(opts.hosts, []string{"claude", "codex", "gemini"}) || !opts.json || !opts.noRun || opts.configFile != "g.yml" {
		t.Errorf("parsed %+v", opts)
	}
	refused(t, newDoctorCmd, "unknown command", "now")
}

func TestInitFlags(t *testing.T) {
	opts, code, _ := parsed(t, newInitCmd, nil)
	if code != exitOK || opts.host != "claude" || opts.yes || opts.force || opts.noHook || opts.shared {
		t.Fatalf("defaults: exit %d %+v", code, opts)
	}
	opts, _, _ = parsed(t, newInitCmd, nil, "--host", "codex", "--shared", "--no-hook", "-y", "--force")
	if opts.host != "codex" || !opts.shared || !opts.noHook || !opts.yes || !opts.force {
		t.Errorf("parsed %+v", opts)
	}
	refused(t, newInitCmd, "unknown shorthand flag: 'f'", "-f")
}

func TestCIMatrixFlags(t *testing.T) {
	opts, code, _ := parsed(t, newCIMatrixCmd, nil, "--shards", "4", "--timings", "t.json")
	if code != exitOK || opts.shards != 4 || opts.timings != "t.json" {
		t.Fatalf("exit %d %+v", code, opts)
	}
	refused(t, newCIMatrixCmd, "give exactly one of --shards N and --max-minutes M")
	refused(t, newCIMatrixCmd, "give exactly one of", "--shards", "2", "--max-minutes", "5")
	refused(t, newCIMatrixCmd, "--shards must be between 1 and", "--shards", "0")
	refused(t, newCIMatrixCmd, "--max-minutes must be positive", "--max-minutes", "-1")
}

func TestSmallCommandsFlags(t *testing.T) {
	if o, code, _ := parsed(t, newListCmd, nil, "--json", "--all", "--base", "dev"); code != exitOK || !o.json || !o.all || o.base != "dev" {
		t.Errorf("list: exit %d %+v", code, o)
	}
	if o, code, _ := parsed(t, newStatusCmd, nil, "--json", "-c", "a.yml"); code != exitOK || !o.json || o.configFile != "a.yml" {
		t.Errorf("status: exit %d %+v", code, o)
	}
	if o, code, _ := parsed(t, newCleanCmd, nil, "--wait=5s"); code != exitOK || o.wait != 5*time.Second {
		t.Errorf("clean: exit %d %+v", code, o)
	}
	if o, code, _ := parsed(t, newExplainCmd, nil, "lint", "--json"); code != exitOK || o.gate != "lint" || !o.json {
		t.Errorf("explain: exit %d %+v", code, o)
	}
	if o, code, _ := parsed(t, newValidateCmd, nil, "-c", "v.yml"); code != exitOK || o.configFile != "v.yml" {
		t.Errorf("validate: exit %d %+v", code, o)
	}
	if o, _, _ := parsed(t, newCleanCmd, nil, "--wait"); o == nil || o.wait != defaultLockWait {
		t.Errorf("clean --wait: %+v, want the default wait", o)
	}
	refused(t, newExplainCmd, "accepts at most 1 arg", "a", "b")
	refused(t, newSchemaCmd, "unknown command", "x")
	refused(t, newVersionCmd, "unknown command", "x")
}

// A whole command runs in-process on its streams: version writes to the injected stdout.
func TestVersionWritesToItsStreams(t *testing.T) {
	ios, out, errOut := testStreams("", nil, t.TempDir(), time.Time{})
	if code := Main([]string{"version"}, ios); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out.String(), "gauntlet ") || errOut.Len() != 0 {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	var help bytes.Buffer
	ios.Out = &help
	if code := Main([]string{"run", "--help"}, ios); code != exitOK || !strings.Contains(help.String(), "FORMAT=FILE") {
		t.Errorf("run --help: exit %d, %q", code, help.String())
	}
}

// A command line that names a command gets a tree of the root and that command alone: each name
// the shortcut goes by is the command's own, and every command of the whole tree has one.
func TestNamedCommandTree(t *testing.T) {
	ios, _, _ := testStreams("", nil, t.TempDir(), time.Time{})
	var names []string
	for _, sub := range subcommands {
		if got := sub.build(ios).Name(); got != sub.name {
			t.Errorf("the command listed as %q is named %q", sub.name, got)
		}
		tree := newCommandTree(ios, []string{sub.name, "--help"})
		if cmds := tree.Commands(); len(cmds) != 1 || cmds[0].Name() != sub.name {
			t.Errorf("%s: the tree has %d commands, want %s alone", sub.name, len(cmds), sub.name)
		}
		names = append(names, sub.name)
	}
	for _, cmd := range newRootCmd(ios).Commands() {
		if name := cmd.Name(); name != "release-files" && name != "completion" && !slices.Contains(names, name) {
			t.Errorf("%s is in the tree but not among the commands a command line can name", name)
		}
	}
	for _, args := range [][]string{nil, {"help", "run"}, {"--version"}, {"rn"}, {"completion", "bash"}, {"release-files", "x"}} {
		if n := len(newCommandTree(ios, args).Commands()); n != len(subcommands)+2 {
			t.Errorf("%q: the tree has %d commands, want all %d", args, n, len(subcommands)+2)
		}
	}
}
