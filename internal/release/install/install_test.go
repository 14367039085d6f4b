// Package packaging_test checks the files that ship gauntlet outside Go: install.sh here, the npm
// packages in npm/.
package packaging_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fakeRelease serves the layout of GitHub releases for one version: download/vX/FILE, and
// latest/download/FILE redirecting there, as github.com does. It records what was asked.
type fakeRelease struct {
	version string
	files   map[string][]byte
	mu      sync.Mutex
	asked   []string
}

func (f *fakeRelease) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.asked = append(f.asked, r.URL.Path)
	f.mu.Unlock()
	if name, ok := strings.CutPrefix(r.URL.Path, "/releases/latest/download/"); ok {
		http.Redirect(w, r, "/releases/download/v"+f.version+"/"+name, http.StatusFound)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/releases/download/v"+f.version+"/")
	data, found := f.files[name]
	if !ok || !found {
		http.NotFound(w, r)
		return
	}
	w.Write(data)
}

// archiveName is the release archive install.sh picks on this machine.
func archiveName(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("install.sh is tested on Linux and macOS, not %s", runtime.GOOS)
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no release for %s", runtime.GOARCH)
	}
	return fmt.Sprintf("gauntlet_%s_%s.tar.gz", runtime.GOOS, runtime.GOARCH)
}

// tarGz is a release archive holding a stand-in gauntlet that prints its version, and the files
// the real archives carry beside it.
func tarGz(t *testing.T, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		body string
	}{
		{"gauntlet", 0o755, "#!/bin/sh\necho 'gauntlet " + version + " (commit fake)'\necho 'causes catalogue v1'\n"},
		{"LICENSE", 0o644, "MIT\n"},
		{"README.md", 0o644, "# gauntlet\n"},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checksums(files map[string][]byte) []byte {
	var b strings.Builder
	for name, data := range files {
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), name)
	}
	return []byte(b.String())
}

// installSh runs install.sh with sh against the server, installing into a fresh directory.
func installSh(t *testing.T, serverURL string, args ...string) (binDir, output string, err error) {
	t.Helper()
	script, abs := "../../../install.sh", ""
	abs, _ = filepath.Abs(script)
	home := t.TempDir()
	binDir = filepath.Join(home, "bin")
	cmd := exec.Command("sh", append([]string{abs, "-b", binDir}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "GAUNTLET_DOWNLOAD_URL="+serverURL+"/releases", "GAUNTLET_VERSION=", "GAUNTLET_BIN_DIR=")
	out, err := cmd.CombinedOutput()
	return binDir, string(out), err
}

func TestInstallShInstallsAVerifiedRelease(t *testing.T) {
	archive := archiveName(t)
	files := map[string][]byte{archive: tarGz(t, "1.2.3")}
	files["checksums.txt"] = checksums(files)
	rel := &fakeRelease{version: "1.2.3", files: files}
	srv := httptest.NewServer(rel)
	defer srv.Close()

	for _, args := range [][]string{nil, {"-v", "1.2.3"}, {"-v", "v1.2.3"}} {
		binDir, out, err := installSh(t, srv.URL, args...)
		if err != nil {
			t.Fatalf("install.sh %v: %v\n%s", args, err, out)
		}
		got, err := exec.Command(filepath.Join(binDir, "gauntlet"), "--version").Output()
		if err != nil || !strings.HasPrefix(string(got), "gauntlet 1.2.3 ") {
			t.Errorf("install.sh %v: installed gauntlet says %q, %v", args, got, err)
		}
		if !strings.Contains(out, "installed gauntlet 1.2.3 (commit fake) in "+binDir) {
			t.Errorf("install.sh %v did not say what it installed:\n%s", args, out)
		}
		if entries, _ := os.ReadDir(binDir); len(entries) != 1 {
			t.Errorf("install.sh %v left %d files in the bin directory, want gauntlet alone", args, len(entries))
		}
	}
	// latest went through the redirect, a version straight to its tag.
	joined := strings.Join(rel.asked, " ")
	for _, want := range []string{"/releases/latest/download/" + archive, "/releases/download/v1.2.3/checksums.txt"} {
		if !strings.Contains(joined, want) {
			t.Errorf("install.sh never asked for %s (asked: %s)", want, joined)
		}
	}
}

// A download that does not match checksums.txt, or is not listed there, is never installed.
func TestInstallShRefusesWhatItCannotVerify(t *testing.T) {
	archive := archiveName(t)
	good := tarGz(t, "1.2.3")
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"tampered archive", map[string][]byte{
			archive:         tarGz(t, "6.6.6"),
			"checksums.txt": checksums(map[string][]byte{archive: good}),
		}, "checksum mismatch for " + archive},
		{"archive not listed", map[string][]byte{
			archive:         good,
			"checksums.txt": checksums(map[string][]byte{"gauntlet_other_os.tar.gz": good}),
		}, archive + " is not listed in checksums.txt"},
		{"no checksums at all", map[string][]byte{archive: good}, "cannot download"},
		{"no such version", nil, "cannot download"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&fakeRelease{version: "1.2.3", files: tc.files})
			defer srv.Close()
			binDir, out, err := installSh(t, srv.URL)
			if err == nil {
				t.Fatalf("install.sh succeeded:\n%s", out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("install.sh said:\n%s\nwant it to say %q", out, tc.want)
			}
			if _, err := os.Stat(filepath.Join(binDir, "gauntlet")); !os.IsNotExist(err) {
				t.Errorf("gauntlet was installed anyway (%v)", err)
			}
		})
	}
}

func TestInstallShRejectsBadArguments(t *testing.T) {
	archiveName(t)
	for _, args := range [][]string{{"-v", "main"}, {"--frobnicate"}} {
		if _, out, err := installSh(t, "http://127.0.0.1:9", args...); err == nil {
			t.Errorf("install.sh %v succeeded:\n%s", args, out)
		}
	}
}

// After `make release-check`, the snapshot in dist/ is served as a release and installed: the
// real archive, checksums.txt and binary. Skipped when there is no snapshot.
func TestInstallShInstallsTheSnapshot(t *testing.T) {
	archive := archiveName(t)
	dist, _ := filepath.Abs("../../../dist")
	if _, err := os.Stat(filepath.Join(dist, "checksums.txt")); err != nil {
		t.Skip("no snapshot in dist/ (make release-check makes one)")
	}
	files := map[string][]byte{}
	for _, name := range []string{archive, "checksums.txt"} {
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	srv := httptest.NewServer(&fakeRelease{version: "0.0.0-snapshot", files: files})
	defer srv.Close()
	binDir, out, err := installSh(t, srv.URL)
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	got, err := exec.Command(filepath.Join(binDir, "gauntlet"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(got), "gauntlet ") {
		t.Errorf("the installed snapshot says %q, %v", got, err)
	}
}
