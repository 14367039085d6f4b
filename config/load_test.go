package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

const mainWithTest = `version: 1
gates:
  test:
    argv: [go, test, ./...]
    timeout: 5m
    paths: ["**/*.go"]
  vet:
    run: go vet ./...
`

func TestLoadFindsTheConfigFromASubdirectory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".git/": "", ".gauntlet.yml": mainWithTest, "pkg/sub/": ""})
	c, err := Load(Options{Dir: filepath.Join(root, "pkg", "sub")})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if c.Root != root || c.Path != filepath.Join(root, ".gauntlet.yml") || c.LocalPath != "" {
		t.Errorf("Root, Path, LocalPath = %q, %q, %q", c.Root, c.Path, c.LocalPath)
	}
}

func TestLoadWithoutConfigWrapsErrNotFound(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".git/": ""})
	if _, err := Load(Options{Dir: root}); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

func TestLoadExplicitFile(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ci/gates.yml": mainWithTest})
	c, err := Load(Options{File: filepath.Join(root, "ci", "gates.yml")})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if c.Root != filepath.Join(root, "ci") || len(c.Gates) != 2 {
		t.Errorf("Root = %q, gates = %d", c.Root, len(c.Gates))
	}
	// A missing -c file is a usage mistake, not "gauntlet is not set up here".
	_, err = Load(Options{File: filepath.Join(root, "missing.yml")})
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want fs.ErrNotExist and not ErrNotFound", err)
	}
}

func TestLoadMergesTheLocalOverride(t *testing.T) {
	tests := []struct {
		name  string
		main  string
		local string
		check func(t *testing.T, c *Config)
	}{
		{"empty local file changes nothing", mainWithTest, "# nothing\n", func(t *testing.T, c *Config) {
			if len(c.Gates) != 2 || c.Gates[0].Timeout != 5*time.Minute {
				t.Errorf("gates = %+v", c.Gates)
			}
		}},
		{"enabled: false disables only that", mainWithTest, "gates:\n  test:\n    enabled: false\n", func(t *testing.T, c *Config) {
			g := c.Gates[0]
			if g.Enabled || !slices.Equal(g.Argv, []string{"go", "test", "./..."}) || g.Timeout != 5*time.Minute || !slices.Equal(g.Paths, []string{"**/*.go"}) {
				t.Errorf("test = %+v", g)
			}
			if !c.Gates[1].Enabled {
				t.Errorf("vet was disabled too")
			}
		}},
		{"one field overrides one field", mainWithTest, "version: 1\ngates:\n  test:\n    timeout: 1m\n", func(t *testing.T, c *Config) {
			g := c.Gates[0]
			if g.Timeout != time.Minute || !g.Enabled || !slices.Equal(g.Argv, []string{"go", "test", "./..."}) || !slices.Equal(g.Paths, []string{"**/*.go"}) {
				t.Errorf("test = %+v", g)
			}
		}},
		{"a new gate is added after the others", mainWithTest, "gates:\n  fmt:\n    run: gofmt -l .\n", func(t *testing.T, c *Config) {
			if len(c.Gates) != 3 || c.Gates[2].Name != "fmt" || c.Gates[2].Run != "gofmt -l ." {
				t.Errorf("gates = %+v", c.Gates)
			}
		}},
		{"run replaces argv", mainWithTest, "gates:\n  test:\n    run: go test -short ./...\n", func(t *testing.T, c *Config) {
			if g := c.Gates[0]; g.Run != "go test -short ./..." || g.Argv != nil {
				t.Errorf("test = %+v", g)
			}
		}},
		{"argv replaces run", mainWithTest, "gates:\n  vet:\n    argv: [go, vet]\n", func(t *testing.T, c *Config) {
			if g := c.Gates[1]; g.Run != "" || !slices.Equal(g.Argv, []string{"go", "vet"}) {
				t.Errorf("vet = %+v", g)
			}
		}},
		{"argv locally drops the main file's shell", mainWithTest + "    shell: bash\n", "gates:\n  vet:\n    argv: [go, vet]\n", func(t *testing.T, c *Config) {
			if g := c.Gates[1]; g.Shell != "" || !slices.Equal(g.Argv, []string{"go", "vet"}) {
				t.Errorf("vet = %+v, want argv and no shell", g)
			}
		}},
		{"run locally keeps the main file's shell", mainWithTest + "    shell: bash\n", "gates:\n  vet:\n    run: go vet -x\n", func(t *testing.T, c *Config) {
			if g := c.Gates[1]; g.Shell != "bash" || g.Run != "go vet -x" {
				t.Errorf("vet = %+v, want the local run with bash", g)
			}
		}},
		{"causes: false locally turns the catalogue off for every gate", mainWithTest, "causes: false\n", func(t *testing.T, c *Config) {
			if c.Causes || c.Gates[0].Causes || c.Gates[1].Causes {
				t.Errorf("causes = %v, gates %v %v", c.Causes, c.Gates[0].Causes, c.Gates[1].Causes)
			}
		}},
		{"a gate's causes: false locally leaves the others on", mainWithTest, "gates:\n  test:\n    causes: false\n", func(t *testing.T, c *Config) {
			if !c.Causes || c.Gates[0].Causes || !c.Gates[1].Causes {
				t.Errorf("causes = %v, gates %v %v", c.Causes, c.Gates[0].Causes, c.Gates[1].Causes)
			}
		}},
		{"top-level scalars replace, env replaces the whole map",
			"version: 1\njobs: 2\nfail_fast: true\nenv: {A: a, B: b}\ngates:\n  t: {run: x, env: {G: g}}\n",
			"jobs: 8\nenv: {C: c}\n", func(t *testing.T, c *Config) {
				if c.Jobs != 8 || !c.FailFast || !slices.Equal(c.Env, []string{"C=c"}) || !slices.Equal(c.Gates[0].Env, []string{"C=c", "G=g"}) {
					t.Errorf("jobs %d fail_fast %v env %q gate env %q", c.Jobs, c.FailFast, c.Env, c.Gates[0].Env)
				}
			}},
		{"stop_hook merges key by key",
			"version: 1\nstop_hook:\n  max_attempts: 5\n  timeout: 4m\n  reason_limit: 3000\n",
			"stop_hook:\n  timeout: 2m\n  subagents: true\n", func(t *testing.T, c *Config) {
				want := StopHook{MaxAttempts: 5, Timeout: 2 * time.Minute, LockWait: DefaultLockWait, Subagents: true, FirstFailure: FirstFailure{Grace: DefaultFirstFailureGrace}, Speculative: true, QuietPeriod: DefaultQuietPeriod, LocalOverrides: LocalReport, PreExisting: PreExistingReport, ReasonLimit: 3000, PreEdit: PreEditDeny}
				if c.StopHook != want {
					t.Errorf("stop_hook = %+v, want %+v", c.StopHook, want)
				}
			}},
		{"a gate's own timeout set locally survives a new default", mainWithTest, "gates:\n  vet:\n    timeout: 1m\n", func(t *testing.T, c *Config) {
			c.SetDefaultTimeout(time.Hour)
			if c.Gates[1].Timeout != time.Minute {
				t.Errorf("vet timeout = %v", c.Gates[1].Timeout)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{".gauntlet.yml": tt.main, ".gauntlet.local.yml": tt.local})
			c, err := Load(Options{Dir: root})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if c.LocalPath != filepath.Join(root, ".gauntlet.local.yml") {
				t.Errorf("LocalPath = %q", c.LocalPath)
			}
			tt.check(t, c)
		})
	}
}

func TestLoadReportsProblemsInTheFileThatSetThem(t *testing.T) {
	tests := []struct {
		name  string
		main  string
		local string
		want  []string
	}{
		{"errors in the local file name it", mainWithTest, "jobs: 0\ngates:\n  test:\n    timout: 1m\n", []string{
			`.gauntlet.local.yml:1:7: "jobs" must be at least 1, got 0`,
			`.gauntlet.local.yml:4:5: unknown key "timout" in gate "test" (did you mean "timeout"?)`,
		}},
		{"a new local gate must be complete", mainWithTest, "gates:\n  fmt:\n    timeout: 1m\n", []string{
			`.gauntlet.local.yml:2:3: gate "fmt" needs "run" (a shell command) or "argv" (a command as a list)`,
		}},
		{"run and argv both set locally", mainWithTest, "gates:\n  test:\n    run: x\n    argv: [y]\n", []string{
			`.gauntlet.local.yml:4:5: "run" and "argv" are both set in gate "test"; keep one`,
		}},
		{"a merged key that does not fit points at the local file", mainWithTest, "gates:\n  vet:\n    cli: claude\n", []string{
			`.gauntlet.local.yml:3:5: "cli" is only for review gates; gate "vet" is a check gate`,
		}},
		{"a merged kind makes the main file's key wrong there", mainWithTest, "gates:\n  vet:\n    kind: todos\n", []string{
			`.gauntlet.yml:8:5: "run" is only for check gates; gate "vet" is a todos gate`,
		}},
		{"version, when given locally, must be 1", mainWithTest, "version: 2\n", []string{
			`.gauntlet.local.yml:1:10: "version" must be 1, got 2`,
		}},
		{"both files' problems, sorted by file", "version: 1\njobs: x\n", "keep_runs: -1\nbogus: 1\n", []string{
			`.gauntlet.local.yml:1:12: "keep_runs" must be at least 0, got -1`,
			`.gauntlet.local.yml:2:1: unknown key "bogus"`,
			`.gauntlet.yml:2:7: "jobs" must be an integer, got "x"`,
		}},
		{"a local syntax error still shows the main file's problems", "version: 1\njobs: x\n", "jobs: [\n", []string{
			`.gauntlet.local.yml:1:1: invalid YAML: did not find expected node content`,
			`.gauntlet.yml:2:7: "jobs" must be an integer, got "x"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{".gauntlet.yml": tt.main, ".gauntlet.local.yml": tt.local})
			t.Chdir(root)
			c, err := Load(Options{})
			var errs *Errors
			if c != nil || !errors.As(err, &errs) {
				t.Fatalf("Load = %v, %v; want *Errors", c, err)
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// A dir that stays inside the root by name but leaves it through a symlink would run the gate,
// and let it write, outside the project.
func TestLoadRejectsDirLeavingTheRootThroughASymlink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	for link, target := range map[string]string{"out": outside, "in": filepath.Join(root, "sub")} {
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(root, FileName)
	write := func(dir string) {
		t.Helper()
		if err := os.WriteFile(file, []byte("version: 1\ngates:\n  g:\n    run: x\n    dir: "+dir+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	write("out")
	realOutside, err := filepath.EvalSymlinks(outside) // a temp dir may itself sit behind a link
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(Options{File: file})
	var problems *Errors
	if !errors.As(err, &problems) || len(problems.Problems) != 1 ||
		!strings.HasSuffix(problems.Error(), `:5:10: "dir" in gate "g" must stay inside the project root, but it leads to `+realOutside+" through a symlink") {
		t.Errorf("dir through a symlink to outside: err = %v", err)
	}

	for _, dir := range []string{"in", "sub", "missing"} {
		write(dir)
		if _, err := Load(Options{File: file}); err != nil {
			t.Errorf("dir %q: %v", dir, err)
		}
	}
}

// The digest follows both files' bytes: the stop hook's fingerprint relies on it.
func TestLoadDigestFollowsBothFiles(t *testing.T) {
	root := t.TempDir()
	file, local := filepath.Join(root, FileName), filepath.Join(root, LocalFileName)
	digestOf := func() string {
		t.Helper()
		cfg, err := Load(Options{File: file})
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Digest
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(file, []byte("version: 1\n"), 0o644))
	first := digestOf()
	if digestOf() != first || len(first) != 64 {
		t.Fatalf("digest %q is not a stable sha256", first)
	}
	must(os.WriteFile(file, []byte("version: 1\n# edited\n"), 0o644))
	edited := digestOf()
	if edited == first {
		t.Error("editing the config did not change the digest")
	}
	must(os.WriteFile(local, []byte("jobs: 2\n"), 0o644))
	if digestOf() == edited {
		t.Error("adding a local override did not change the digest")
	}
}

// A config name that is not a regular file is reported as such (a FIFO would block a read), not
// skipped as if there were no config.
func TestLoadRefusesANonRegularConfig(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testos.Mkfifo(filepath.Join(root, ".gauntlet.yml")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := Load(Options{Dir: root})
	var errs *Errors
	if !errors.As(err, &errs) || !strings.Contains(err.Error(), ".gauntlet.yml: not a regular file") {
		t.Fatalf("err = %v, want a config error naming the file", err)
	}
}

// Public keys as `gauntlet cache keygen` prints them.
const (
	testPublicKey  = "ed25519:3SEQoBFWjaq76Tp/KzcoNX6H1ql+uA2KkdvwC2XBTAU="
	testPublicKey2 = "ed25519:UBup0fl3gPJpRecdWPPHQpY68UvTmNVeWA+HXROf2Ow="
	// A private key's text: refused wherever a public key is expected.
	testPrivateKey = "ed25519-private:hJmer+QFLlf70ZSWwyvk3V/btM24xkrnk7z3FxPZfMA="
)

func TestRemoteCacheMergesKeyByKeyAndNeedsAURLAndPublicKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gauntlet.yml", "version: 1\ncache:\n  enabled: true\n  remote:\n    url: http://127.0.0.1:9/c\n    write: true\n    public_keys: ["+testPublicKey+", "+testPublicKey2+"]\ngates:\n  t:\n    run: x\n")
	// A machine's own mirror of the server, and its own patience: personal.
	write(LocalFileName, "cache:\n  remote:\n    url: http://127.0.0.1:10/mirror\n    timeout: 5s\n")
	c, err := Load(Options{File: filepath.Join(dir, ".gauntlet.yml")})
	if err != nil {
		t.Fatal(err)
	}
	want := RemoteCache{URL: "http://127.0.0.1:10/mirror", Write: true, PublicKeys: []string{testPublicKey, testPublicKey2}, Timeout: 5 * time.Second}
	if !c.Cache || c.RemoteCache == nil || !reflect.DeepEqual(*c.RemoteCache, want) {
		t.Fatalf("cache = %v, remote = %+v, want %+v", c.Cache, c.RemoteCache, want)
	}
	// cache: true keeps its meaning.
	c, err = Parse(filepath.Join(dir, "x.yml"), []byte("version: 1\ncache: true\n"), dir)
	if err != nil || !c.Cache || c.RemoteCache != nil {
		t.Fatalf("cache: true = %v, %+v, %v", c.Cache, c.RemoteCache, err)
	}
	keys := "    public_keys: [" + testPublicKey + "]\n"
	for body, want := range map[string]string{
		"version: 1\ncache:\n  remote:\n    write: true\n" + keys:                 `x.yml:3:3: "remote" in cache needs a url`,
		"version: 1\ncache:\n  remote:\n    url: http://x\n":                      `x.yml:3:3: "remote" in cache needs public_keys`,
		"version: 1\ncache:\n  remote:\n    url: http://x\n    public_keys: []\n": `x.yml:3:3: "remote" in cache needs public_keys`,
		"version: 1\ncache:\n  remote:\n    url: ftp://x\n" + keys:                `must be an http:// or https:// URL with a host, got "ftp://x"`,
		"version: 1\ncache: yes please\n":                                         `"cache" must be true, false or a mapping`,
		"version: 1\ncache:\n  enabled: true\n  remotes: {}\n":                    `unknown key "remotes" in cache`,
		// The halves of a pair are told apart: a private key in the config is refused, and said.
		"version: 1\ncache:\n  remote:\n    url: http://x\n    public_keys: [" + testPrivateKey + "]\n": `x.yml:5:19: item 1 of "public_keys" in remote is a private key: it belongs in CI's secrets`,
		"version: 1\ncache:\n  remote:\n    url: http://x\n    public_keys: [AAAA]\n":                   `must be a public key as ` + "`gauntlet cache keygen`" + ` prints it (ed25519:BASE64), got "AAAA"`,
		"version: 1\ncache:\n  remote:\n    url: http://x\n    public_keys: [\"ed25519:AAAA\"]\n":       `got "ed25519:AAAA"`,
		// The shared secret is gone: its key says how to move on.
		"version: 1\ncache:\n  remote:\n    url: http://x\n" + keys + "    key_env: GAUNTLET_CACHE_KEY\n": `x.yml:6:5: cache.remote.key_env is no longer read: entries are signed with a private key only CI holds`,
	} {
		_, err := Parse(filepath.Join(dir, "x.yml"), []byte(body), dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}
