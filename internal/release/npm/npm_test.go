package npm_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The npm packages are assembled from a dist/ laid out as goreleaser leaves it (artifacts.json,
// metadata.json, one binary per platform), packed with npm pack, installed offline from the
// tarballs into an empty project, and the installed command runs the binary of this platform.
// The binary for this platform is a real gauntlet build; the others are placeholders that only
// have to be packed.
func TestPackagesInstallOfflineAndRun(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the npm packages are not tested here", tool)
		}
	}
	const version = "1.2.3"
	work := t.TempDir()
	dist := filepath.Join(work, "dist")

	type artifact struct {
		Name   string            `json:"name"`
		Path   string            `json:"path"`
		Goos   string            `json:"goos"`
		Goarch string            `json:"goarch"`
		Type   string            `json:"type"`
		Extra  map[string]string `json:"extra"`
	}
	var artifacts []artifact
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			name := "gauntlet"
			if goos == "windows" {
				name += ".exe"
			}
			rel := filepath.Join("dist", fmt.Sprintf("gauntlet_%s_%s", goos, goarch), name)
			abs := filepath.Join(work, rel)
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if goos == runtime.GOOS && goarch == runtime.GOARCH {
				build := exec.Command("go", "build", "-trimpath", "-o", abs,
					"-ldflags", "-X main.version="+version+" -X main.commit=abc1234", "../../../cmd/gauntlet")
				build.Env = append(os.Environ(), "CGO_ENABLED=0")
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("go build: %v\n%s", err, out)
				}
			} else if err := os.WriteFile(abs, []byte("placeholder for "+goos+"/"+goarch), 0o755); err != nil {
				t.Fatal(err)
			}
			artifacts = append(artifacts, artifact{Name: name, Path: rel, Goos: goos, Goarch: goarch, Type: "Binary",
				Extra: map[string]string{"ID": "gauntlet", "Binary": "gauntlet"}})
		}
	}
	// An archive is no binary: it must not become a package.
	artifacts = append(artifacts, artifact{Name: "gauntlet_linux_amd64.tar.gz", Path: "dist/gauntlet_linux_amd64.tar.gz",
		Goos: "linux", Goarch: "amd64", Type: "Archive"})
	writeJSON(t, filepath.Join(dist, "artifacts.json"), artifacts)
	writeJSON(t, filepath.Join(dist, "metadata.json"), map[string]string{"project_name": "gauntlet", "version": version, "tag": "v" + version})

	out := run(t, work, "node", mustAbs(t, "../../../packaging/npm/assemble.mjs"), "--dist", dist)
	var tarballs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasSuffix(line, ".tgz") {
			tarballs = append(tarballs, line)
		}
	}
	if len(tarballs) != 7 {
		t.Fatalf("assemble packed %d tarballs, want 7 (6 platforms and the main package):\n%s", len(tarballs), out)
	}

	// The main package names every platform package at its own version.
	var main struct {
		Name                 string            `json:"name"`
		Version              string            `json:"version"`
		Bin                  map[string]string `json:"bin"`
		Scripts              map[string]string `json:"scripts"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	readJSON(t, filepath.Join(dist, "npm", "gauntlet", "package.json"), &main)
	if main.Name != "@gauntlet-dev/gauntlet" || main.Version != version || main.Bin["gauntlet"] != "bin/gauntlet.js" {
		t.Errorf("main package: %+v", main)
	}
	if len(main.Scripts) != 0 {
		t.Errorf("the main package has scripts %v: installing must run nothing", main.Scripts)
	}
	for _, p := range []string{"linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"} {
		if v := main.OptionalDependencies["@gauntlet-dev/gauntlet-"+p]; v != version {
			t.Errorf("optionalDependencies[%s] = %q, want %s", p, v, version)
		}
	}

	project, bin := installOffline(t, work, tarballs, version)
	got := run(t, project, bin, "--version")
	if !strings.HasPrefix(got, "gauntlet "+version+" (commit abc1234") {
		t.Errorf("gauntlet --version through npm printed %q, want gauntlet %s (commit abc1234 ...", got, version)
	}
	// The exit code comes through the launcher.
	cmd := exec.Command(bin, "no-such-command")
	cmd.Dir = project
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("gauntlet no-such-command through npm: %v, want exit 2", err)
	}
}

// installOffline installs the main package and this platform's package from their tarballs into
// a new project, offline, and returns the project and its gauntlet command.
func installOffline(t *testing.T, work string, tarballs []string, version string) (project, bin string) {
	t.Helper()
	// Installed offline from this platform's tarball and the main one, with an empty cache and a
	// registry that answers nothing: what npm does through a registry, picking the optional
	// dependency whose os and cpu match, without the network. The other platforms' packages,
	// which npm cannot fetch here, are optional and skipped.
	npmOS := map[string]string{"windows": "win32"}[runtime.GOOS]
	if npmOS == "" {
		npmOS = runtime.GOOS
	}
	npmCPU := map[string]string{"amd64": "x64"}[runtime.GOARCH]
	if npmCPU == "" {
		npmCPU = runtime.GOARCH
	}
	var install []string
	for _, tb := range tarballs {
		base := filepath.Base(tb)
		if base == "gauntlet-dev-gauntlet-"+version+".tgz" || base == "gauntlet-dev-gauntlet-"+npmOS+"-"+npmCPU+"-"+version+".tgz" {
			install = append(install, tb)
		}
	}
	if len(install) != 2 {
		t.Fatalf("no tarball for this platform (%s-%s) among %q", npmOS, npmCPU, tarballs)
	}
	project = filepath.Join(work, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(project, "package.json"), map[string]any{"name": "consumer", "version": "1.0.0", "private": true})
	args := append([]string{"install", "--offline", "--no-audit", "--no-fund", "--cache", filepath.Join(work, "npm-cache"),
		"--registry", "http://127.0.0.1:9/"}, install...)
	run(t, project, "npm", args...)

	bin = filepath.Join(project, "node_modules", ".bin", "gauntlet")
	if runtime.GOOS == "windows" {
		bin += ".cmd"
	}
	return project, bin
}

// After `make release-check`, the npm tarballs assembled from the snapshot in dist/ install
// offline and run. Skipped when there is no snapshot.
func TestSnapshotPackagesInstallOffline(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the npm packages are not tested here", tool)
		}
	}
	tarballs, _ := filepath.Glob("../../../dist/npm/*.tgz")
	if len(tarballs) == 0 {
		t.Skip("no npm packages in dist/npm (make release-check assembles them)")
	}
	var version struct {
		Version string `json:"version"`
	}
	readJSON(t, "../../../dist/metadata.json", &version)
	for i := range tarballs {
		tarballs[i] = mustAbs(t, tarballs[i])
	}
	project, bin := installOffline(t, t.TempDir(), tarballs, version.Version)
	if got := run(t, project, bin, "--version"); !strings.HasPrefix(got, "gauntlet "+version.Version+" ") {
		t.Errorf("the snapshot's gauntlet --version through npm printed %q, want gauntlet %s", got, version.Version)
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// npm must find no user configuration that could point it at a registry or a cache.
	cmd.Env = append(os.Environ(), "npm_config_userconfig="+filepath.Join(dir, "no-npmrc"), "npm_config_update_notifier=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
