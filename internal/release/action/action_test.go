// Package action_test runs what the GitHub Action (../action.yml) runs, outside GitHub: the
// version resolution against a local stand-in for the releases API, and the steps' scripts with
// bash against a real gauntlet, so that the Action's logic is tested where the suite runs.
package action_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the Action's version resolution is not tested here")
	}
}

// The pure resolution: v1, v1.2, v1.2.3, latest, main, a SHA pin, and what must never happen.
func TestResolveUnits(t *testing.T) {
	needNode(t)
	out, err := exec.Command("node", "--test", "../../../action/resolve.test.mjs").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test resolve.test.mjs: %v\n%s", err, out)
	}
}

// fakeAPI serves the releases and tags lists the way api.github.com pages them.
func fakeAPI(t *testing.T, releases []map[string]any, tags []map[string]any) *httptest.Server {
	t.Helper()
	page := func(w http.ResponseWriter, r *http.Request, items []map[string]any) {
		if r.URL.Query().Get("per_page") != "100" {
			t.Errorf("%s asked without per_page=100", r.URL)
		}
		var n int
		fmt.Sscan(r.URL.Query().Get("page"), &n)
		lo, hi := min((n-1)*100, len(items)), min(n*100, len(items))
		json.NewEncoder(w).Encode(items[lo:hi])
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/repos/gauntlet-dev/gauntlet/releases", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer the-token" {
			t.Errorf("releases asked without the token: %q", r.Header.Get("Authorization"))
		}
		page(w, r, releases)
	})
	mux.HandleFunc("/repos/gauntlet-dev/gauntlet/tags", func(w http.ResponseWriter, r *http.Request) { page(w, r, tags) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s", r.URL)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// resolve.mjs as the Action runs it, against the stand-in API.
func TestResolveAgainstTheReleasesAPI(t *testing.T) {
	needNode(t)
	// 150 releases, so that the newest v1 is on the second page: v1.0.0 ... v1.149.0, then v2.0.0
	// and a v3 pre-release first, as GitHub lists the newest first.
	releases := []map[string]any{
		{"tag_name": "v3.0.0-rc.1", "prerelease": true, "draft": false},
		{"tag_name": "v2.0.0", "prerelease": false, "draft": false},
	}
	for i := 0; i < 150; i++ {
		releases = append(releases, map[string]any{"tag_name": fmt.Sprintf("v1.%d.0", i), "prerelease": false, "draft": false})
	}
	releases = append(releases, map[string]any{"tag_name": "v1.2.7", "prerelease": false, "draft": false})
	sha := strings.Repeat("ab", 20)
	tags := []map[string]any{{"name": "v1.2.7", "commit": map[string]any{"sha": sha}}}
	srv := fakeAPI(t, releases, tags)

	for _, tc := range []struct {
		ref, version, fromSource string
		want                     string
	}{
		{ref: "v1", want: "mode=release\ntag=v1.149.0\nversion=1.149.0\n"},
		{ref: "v1.2", want: "mode=release\ntag=v1.2.7\nversion=1.2.7\n"},
		{ref: "v1.2.3", want: "mode=release\ntag=v1.2.3\nversion=1.2.3\n"},
		{ref: "v2", want: "mode=release\ntag=v2.0.0\nversion=2.0.0\n"},
		{ref: "main", want: "mode=source\ntag=\nversion=\n"},
		{ref: "main", version: "v1.5", want: "mode=release\ntag=v1.5.0\nversion=1.5.0\n"},
		{ref: "v1", version: "latest", want: "mode=release\ntag=v2.0.0\nversion=2.0.0\n"},
		{ref: "v1", fromSource: "true", want: "mode=source\ntag=\nversion=\n"},
		{ref: sha, want: "mode=release\ntag=v1.2.7\nversion=1.2.7\n"},
	} {
		cmd := exec.Command("node", "../../../action/resolve.mjs")
		cmd.Env = append(os.Environ(), "GITHUB_API_URL="+srv.URL, "GITHUB_TOKEN=the-token", "ACTION_REPO=gauntlet-dev/gauntlet",
			"ACTION_REF="+tc.ref, "INPUT_VERSION="+tc.version, "INPUT_FROM_SOURCE="+tc.fromSource)
		out, err := cmd.Output()
		if err != nil || string(out) != tc.want {
			t.Errorf("ref %q version %q from-source %q: %v\n got %q\nwant %q", tc.ref, tc.version, tc.fromSource, err, out, tc.want)
		}
	}

	// Nothing matching fails the step with an annotation; it never falls back to latest.
	cmd := exec.Command("node", "../../../action/resolve.mjs")
	cmd.Env = append(os.Environ(), "GITHUB_API_URL="+srv.URL, "GITHUB_TOKEN=the-token", "ACTION_REF=v4")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "::error title=gauntlet::cannot resolve the version to install: no published release matches v4") {
		t.Errorf("@v4 with no v4 release: %v\n%s", err, out)
	}
}

// step is one step of action.yml.
type step struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Uses string            `yaml:"uses"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

func steps(t *testing.T) map[string]step {
	t.Helper()
	data, err := os.ReadFile("../../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs struct {
			Steps []step `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]step{}
	for _, s := range doc.Runs.Steps {
		out[s.Name] = s
	}
	return out
}

// runStep runs a step's script with bash as the runner would, with env standing for the
// expressions, and returns what it wrote to $GITHUB_OUTPUT and $GITHUB_PATH.
func runStep(t *testing.T, s step, dir string, env ...string) (outputs map[string]string, path string, log string, err error) {
	t.Helper()
	if s.Run == "" {
		t.Fatalf("step %q runs no script", s.Name)
	}
	files := t.TempDir()
	output, ghPath := filepath.Join(files, "output"), filepath.Join(files, "path")
	for _, f := range []string{output, ghPath} {
		os.WriteFile(f, nil, 0o644)
	}
	actionPath, _ := filepath.Abs("../../..")
	cmd := exec.Command("bash", "-e", "-c", s.Run)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+output, "GITHUB_PATH="+ghPath, "GITHUB_ACTION_PATH="+actionPath,
		"RUNNER_TEMP="+t.TempDir(), "RUNNER_OS=Linux", "GITHUB_REF_NAME=main", "GITHUB_HEAD_REF=", "GITHUB_RUN_ID=77", "GITHUB_RUN_ATTEMPT=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	outputs = parseOutput(t, output)
	p, _ := os.ReadFile(ghPath)
	return outputs, strings.TrimSpace(string(p)), string(out), err
}

// parseOutput reads $GITHUB_OUTPUT: name=value lines and name<<EOF blocks.
func parseOutput(t *testing.T, file string) map[string]string {
	data, _ := os.ReadFile(file)
	out := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var v []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				v = append(v, lines[i])
			}
			out[name] = strings.Join(v, "\n")
		} else if name, v, ok := strings.Cut(lines[i], "="); ok {
			out[name] = v
		}
	}
	return out
}

// gauntletBin builds gauntlet once for the step tests.
func gauntletBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		// Linking gauntlet is most of this package's time (minutes on a loaded machine): the quick
		// gate of `make run` leaves the step tests to make test and the race gate.
		t.Skip("-short: the action's steps run a freshly built gauntlet; make test runs them")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "gauntlet"), "-ldflags", "-X main.version=1.2.3 -X main.commit=abc1234", "../../../cmd/gauntlet")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

func gitRepo(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".gauntlet.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func TestStepsTakeInputsOnlyThroughTheEnvironment(t *testing.T) {
	// An input spliced into a script is a script injection (a gate name from a PR title...):
	// every expression goes through env.
	for name, s := range steps(t) {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its script", name)
		}
	}
}

// The run step writes the JSON report and the SARIF in one run, and says where; the cache step
// names the shared cache and a key of the config's digest and the branch.
func TestRunAndCacheSteps(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := gauntletBin(t)
	all := steps(t)
	repo := gitRepo(t, "version: 1\ncache: true\ngates:\n  ok:\n    run: 'true'\n  vet:\n    run: \"echo 'main.go:3:1: unused variable x' && exit 1\"\n    format: go\n")
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GATES=", "SHARD=", "FORMAT=json", "SARIF=true", "ARGS=--all"}

	outputs, _, log, err := runStep(t, all["Run gauntlet"], repo, env...)
	if err == nil {
		t.Fatalf("the run step passed with a failing gate:\n%s", log)
	}
	report, sarif := outputs["report"], outputs["sarif"]
	if report != filepath.Join(repo, "gauntlet-report.json") || sarif != filepath.Join(repo, "gauntlet.sarif") {
		t.Fatalf("outputs %v\n%s", outputs, log)
	}
	var r struct {
		Verdict string `json:"verdict"`
	}
	data, _ := os.ReadFile(report)
	if err := json.Unmarshal(data, &r); err != nil || r.Verdict != "fail" {
		t.Errorf("report: verdict %q, %v", r.Verdict, err)
	}
	var s struct {
		Version string `json:"version"`
		Runs    []any  `json:"runs"`
	}
	data, _ = os.ReadFile(sarif)
	if err := json.Unmarshal(data, &s); err != nil || s.Version != "2.1.0" || len(s.Runs) != 1 {
		t.Errorf("sarif: %+v, %v", s, err)
	}

	outputs, _, log, err = runStep(t, all["Locate gauntlet's cache"], repo, env...)
	if err != nil {
		t.Fatalf("cache step: %v\n%s", err, log)
	}
	config, _ := os.ReadFile(filepath.Join(repo, ".gauntlet.yml"))
	digest := fmt.Sprintf("%x", sha256.Sum256(config))[:16]
	prefix := "gauntlet-cache-v1-Linux-" + digest
	if outputs["key"] != prefix+"-main-77-1" || outputs["restore-keys"] != prefix+"-main-\n"+prefix+"-" {
		t.Errorf("key %q restore-keys %q, want them from the config digest %s and the branch", outputs["key"], outputs["restore-keys"], digest)
	}
	common := filepath.Join(repo, ".git", "gauntlet", "cache")
	if outputs["paths"] != common+"\n"+filepath.Join(repo, ".gauntlet", "cache") {
		t.Errorf("paths %q, want the shared cache in .git then .gauntlet/cache", outputs["paths"])
	}
	// The run above passed gate ok with cache: true: the path the step names holds it.
	if _, err := os.Stat(filepath.Join(common, "gates.json")); err != nil {
		t.Errorf("no cache where the step says it is: %v", err)
	}
}

// The install step takes a release from the runner's tool cache when it is there, and otherwise
// installs it there through install.sh, verified, from the release's download URL.
func TestInstallStepUsesTheToolCache(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the install step is tested on Linux and macOS")
	}
	bin := gauntletBin(t)
	s := steps(t)["Install gauntlet"]
	machine, _ := exec.Command("uname", "-m").Output()
	toolcache := t.TempDir()
	cached := filepath.Join(toolcache, "gauntlet", "1.2.3", strings.TrimSpace(string(machine)))

	// A miss: downloaded from the release (a local server), checked, installed in the cache.
	archive := tarGz(t, filepath.Join(bin, "gauntlet"))
	name := fmt.Sprintf("gauntlet_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
	files := map[string][]byte{name: archive, "checksums.txt": []byte(fmt.Sprintf("%x  %s\n", sha256.Sum256(archive), name))}
	asked := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		data, ok := files[strings.TrimPrefix(r.URL.Path, "/releases/download/v1.2.3/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer srv.Close()
	env := []string{"MODE=release", "TAG=v1.2.3", "VERSION=1.2.3", "RUNNER_TOOL_CACHE=" + toolcache, "GAUNTLET_DOWNLOAD_URL=" + srv.URL + "/releases"}
	outputs, path, log, err := runStep(t, s, t.TempDir(), env...)
	if err != nil {
		t.Fatalf("install: %v\n%s", err, log)
	}
	if path != cached || outputs["version"] != "1.2.3" {
		t.Errorf("GITHUB_PATH %q, version %q; want %s and 1.2.3\n%s", path, outputs["version"], cached, log)
	}
	if _, err := os.Stat(cached + ".complete"); err != nil {
		t.Errorf("no .complete marker: %v", err)
	}

	// A hit: nothing downloaded.
	asked = 0
	if _, path, log, err = runStep(t, s, t.TempDir(), env...); err != nil || path != cached || asked != 0 {
		t.Errorf("second install: %v, path %q, %d downloads (want 0)\n%s", err, path, asked, log)
	}

	// A tampered download is not installed, and leaves no marker behind.
	files[name] = append([]byte{}, append(archive, 0)...)
	os.RemoveAll(filepath.Join(toolcache, "gauntlet"))
	if _, _, log, err = runStep(t, s, t.TempDir(), env...); err == nil {
		t.Errorf("a download that does not match checksums.txt was installed:\n%s", log)
	}
	if _, err := os.Stat(cached + ".complete"); err == nil {
		t.Error("a failed install left a .complete marker")
	}
}

// tarGz is a release archive holding the binary at path as gauntlet.
func tarGz(t *testing.T, path string) []byte {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gauntlet"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "a.tar.gz")
	if msg, err := exec.Command("tar", "-czf", out, "-C", dir, "gauntlet").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, msg)
	}
	archive, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return archive
}

// The actions the Action runs are pinned by commit, as a user pinning the Action itself by SHA
// expects of everything it runs: a tag (v4) can be moved to other code, a commit cannot. The tag
// the commit was read from stays in a comment on the same line, for people and for Dependabot.
func TestActionsItRunsArePinnedByCommit(t *testing.T) {
	data, err := os.ReadFile("../../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	pinned := regexp.MustCompile(`^\s*uses:\s*([\w.-]+/[\w./-]+)@([0-9a-f]{40})\s+#\s*(v\d+\.\d+\.\d+)\s*$`)
	var uses int
	for i, line := range strings.Split(string(data), "\n") {
		if !regexp.MustCompile(`^\s*(-\s*)?uses:`).MatchString(line) {
			continue
		}
		uses++
		if !pinned.MatchString(line) {
			t.Errorf("action.yml:%d: %q is not pinned by a full commit SHA with its tag in a comment (uses: owner/repo@SHA # vX.Y.Z)", i+1, strings.TrimSpace(line))
		}
	}
	if uses == 0 {
		t.Error("action.yml runs no action: the test reads the wrong file")
	}
	for _, s := range steps(t) {
		if s.Uses != "" && !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(s.Uses) {
			t.Errorf("step %q uses %q, not a commit", s.Name, s.Uses)
		}
	}
}
