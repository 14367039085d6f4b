//go:build hostse2e

// The hosts' real CLIs against gauntlet's stop hook: make hosts-e2e installs the versions in
// versions.txt from npm and runs this with GAUNTLET_E2E_PREFIX naming the install prefix. Every
// model request goes to fakemodel on 127.0.0.1; HOME is a temporary folder, so the hosts read no
// user setting and write none.
package hostse2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/hostse2e/fakemodel"
)

// hostTimeout bounds one run of a host CLI: a turn against the fake model takes seconds.
const hostTimeout = 3 * time.Minute

var gauntletBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gauntlet-e2e-bin")
	if err != nil {
		panic(err)
	}
	gauntletBin = filepath.Join(dir, "gauntlet")
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	build := exec.Command("go", "build", "-o", gauntletBin, "./cmd/gauntlet")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build gauntlet: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli finds a host CLI under the prefix, or skips the test naming what is missing.
func cli(t *testing.T, rel string) string {
	t.Helper()
	prefix := os.Getenv("GAUNTLET_E2E_PREFIX")
	if prefix == "" {
		t.Skip("GAUNTLET_E2E_PREFIX is not set: run make hosts-e2e")
	}
	p := filepath.Join(prefix, "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed under %s", rel, prefix)
	}
	return p
}

// project is a git repository with a .gauntlet.yml and gauntlet's hook for host installed by
// gauntlet init, and a HOME of its own.
type project struct {
	t    *testing.T
	dir  string
	home string
	env  []string // the host's environment
}

func newProject(t *testing.T, host, config string, model *fakemodel.Server) *project {
	t.Helper()
	return newProjectWith(t, host, config, nil)
}

// newProjectWith is newProject with files in place before init runs.
func newProjectWith(t *testing.T, host, config string, files map[string]string) *project {
	t.Helper()
	base := t.TempDir()
	p := &project{t: t, dir: filepath.Join(base, "proj"), home: filepath.Join(base, "home")}
	for _, d := range []string{p.dir, p.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.write(".gauntlet.yml", config)
	p.write("main.txt", "the agent's work\n")
	for rel, content := range files {
		p.write(rel, content)
	}
	p.env = []string{
		"HOME=" + p.home, "PATH=" + filepath.Dir(gauntletBin) + ":/usr/local/bin:/usr/bin:/bin",
		"LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
	}
	p.run("git", "init", "-q", "-b", "main")
	p.run("git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-q", "--allow-empty", "-m", "empty")
	p.gauntlet(0, "init", "--yes", "--host", host)
	return p
}

func (p *project) write(rel, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) run(name string, args ...string) string {
	p.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// gauntlet runs gauntlet in the project and checks its exit code.
func (p *project) gauntlet(want int, args ...string) string {
	p.t.Helper()
	cmd := exec.Command(gauntletBin, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		p.t.Fatal(err)
	}
	if code != want {
		p.t.Fatalf("gauntlet %v exited %d, want %d\n%s", args, code, want, out.String())
	}
	return out.String()
}

// host runs a host CLI in the project with extra environment, bounded by hostTimeout.
func (p *project) host(extraEnv []string, name string, args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = p.dir, append(append([]string{}, p.env...), extraEnv...)
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		p.t.Fatalf("%s: %v", name, err)
	}
	if ctx.Err() != nil {
		p.t.Fatalf("%s did not end within %s\nstdout: %s\nstderr: %s", name, hostTimeout, o.String(), e.String())
	}
	return o.String(), e.String(), code
}

// decision is one line of the stop hook's history.
type decision struct {
	Host, Session, Decision, Why string
	Attempt                      int
}

func (p *project) history() []decision {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, ".gauntlet", "state", "history.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		p.t.Fatal(err)
	}
	var out []decision
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var d decision
		if json.Unmarshal(sc.Bytes(), &d) == nil {
			out = append(out, d)
		}
	}
	return out
}

// pins says how each of the project's agent sessions had its base pinned ("session start", "first
// stop", ...), read from the session records beside the user's key in the project's HOME.
func (p *project) pins() []string {
	p.t.Helper()
	files, _ := filepath.Glob(filepath.Join(p.home, ".local", "state", "gauntlet", "projects", "*", "sessions", "*.json"))
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, ".advance.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			p.t.Fatal(err)
		}
		var r struct{ How string }
		if json.Unmarshal(data, &r) == nil {
			out = append(out, r.How)
		}
	}
	return out
}

// whys is the history as "decision/why" words, for comparing.
func whys(ds []decision) string {
	var w []string
	for _, d := range ds {
		w = append(w, d.Decision+"/"+d.Why)
	}
	return strings.Join(w, " ")
}

const failingConfig = `version: 1
stop_hook:
  max_attempts: %d
gates:
  broken:
    run: "echo 'main.txt:1: the work is not done'; exit 1"
`

func startModel(t *testing.T) *fakemodel.Server {
	t.Helper()
	m, err := fakemodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
