package runner

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

const kindEcho gates.Kind = "echo-env"

// echoKind runs `sh -c 'echo ...'` through the runner's executor and judges itself from the
// process's exit code, using every part of the surface a registered kind gets.
var echoKind = KindFunc(func(ctx context.Context, gr *GateRun) gates.Outcome {
	p := Process{Argv: []string{"/bin/sh", "-c", `echo "$GAUNTLET_GATE|$FROM_KIND|$(pwd)"`}, Dir: gr.Dir(), Env: gr.Env("FROM_KIND=kind")}
	exit, err := gr.Execute(ctx, p, gr.Out)
	if err != nil {
		return gates.Outcome{ExitCode: -1, Internal: err}
	}
	if exit.Interrupted {
		return gr.Stopped(ctx, exit.Code)
	}
	return gr.Judged(exit.Code, gates.Judgement{Status: gates.StatusFail, Reason: "judged by the kind", Lines: []string{"first line", "second line"}})
})

func TestRegisteredKindRunsThroughTheRunner(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Kinds = map[gates.Kind]Kind{kindEcho: echoKind}
	g := shellGate("custom", "")
	g.Kind = kindEcho
	res := Run(context.Background(), []gates.Gate{g}, opts)[0]
	if res.Status != gates.StatusFail || res.Reason != "judged by the kind" || res.Kind != kindEcho {
		t.Fatalf("status %s kind %s reason %q, want fail judged by the kind", res.Status, res.Kind, res.Reason)
	}
	want := "custom|kind|" + opts.Root + "\nfirst line\nsecond line\n"
	if got := readLog(t, opts, "custom"); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
}

func TestRegisteredKindIsStoppedByTheGateTimeout(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	opts.Kinds = map[gates.Kind]Kind{kindEcho: KindFunc(func(ctx context.Context, gr *GateRun) gates.Outcome {
		<-ctx.Done()
		return gr.Stopped(ctx, -1)
	})}
	g := shellGate("slow", "")
	g.Kind = kindEcho
	g.Timeout = 50 * time.Millisecond
	res := Run(context.Background(), []gates.Gate{g}, opts)[0]
	if !res.TimedOut || res.Status != gates.StatusFail {
		t.Fatalf("status %s timed out %v, want a timed-out failure", res.Status, res.TimedOut)
	}
}

func TestUnregisteredKindIsNotSupported(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	g := shellGate("review", "")
	g.Kind = gates.KindReview // the caller registered no kinds: the runner knows only check
	res := Run(context.Background(), []gates.Gate{g}, opts)[0]
	if res.Status != gates.StatusError || !strings.Contains(res.Reason, "kind review is not supported by this build") {
		t.Fatalf("status %s reason %q, want the unsupported kind's error", res.Status, res.Reason)
	}
}

// TestRunnerImportsNoGateKind keeps the runner a library of its own: a kind is registered by the
// caller, never imported by the scheduler. The runner may use only the packages listed here.
func TestRunnerImportsNoGateKind(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to list the runner's imports:", err)
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-json=ImportPath,Module", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	allowed := map[string]bool{
		"github.com/gauntlet-dev/gauntlet/runner":            true,
		"github.com/gauntlet-dev/gauntlet/gates":             true,
		"github.com/gauntlet-dev/gauntlet/internal/proc":     true,
		"github.com/gauntlet-dev/gauntlet/internal/oscmd":    true,
		"github.com/gauntlet-dev/gauntlet/internal/filesarg": true,
		"github.com/gauntlet-dev/gauntlet/internal/termtext": true,
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Module     *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != "github.com/gauntlet-dev/gauntlet" {
			continue // the standard library and third-party modules
		}
		if !allowed[p.ImportPath] {
			t.Errorf("runner depends on %s: a gate kind (review, todos, ...) is registered through Options.Kinds, "+
				"never imported; a package that is no kind may be added to this test's list", p.ImportPath)
		}
	}
}
