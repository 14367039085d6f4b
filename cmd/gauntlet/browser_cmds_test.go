package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The HTML reports are checked in a real browser: headless Chromium loads each page from
// file://, as a user opening a CI artefact would, and must log nothing to its console (a script,
// a resource the page's Content-Security-Policy blocks, a parse error would). A machine without
// Chromium skips these scripts, saying so; CI installs Debian's chromium (Makefile: browser).

func init() {
	scriptCmds["browser"] = cmdBrowser
}

// browserNames are the names Chromium goes by on PATH, in the order they are tried.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome"}

// browserPath is the first Chromium on PATH; "" when there is none.
func browserPath() string {
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// cmdBrowser renders PAGE headless ("browser PAGE SCREENSHOT DOM"): it writes the DOM the page
// builds to DOM, for grep, fails on any line Chromium logs from the page's console, and takes a
// screenshot of 1280×1600 into SCREENSHOT (a PNG of that size, checked). With
// $GAUNTLET_SCREENSHOTS set, the screenshot is also copied into that directory, for the docs.
func cmdBrowser(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: browser PAGE SCREENSHOT DOM")
	}
	bin := browserPath()
	if bin == "" {
		ts.Fatalf("browser: no %s on PATH", strings.Join(browserNames, ", "))
	}
	page, shot, dom := ts.MkAbs(args[0]), ts.MkAbs(args[1]), ts.MkAbs(args[2])
	url := "file://" + filepath.ToSlash(page)
	common := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		// Its own profile, in the script's directory: nothing of the user's, nothing left behind.
		"--user-data-dir=" + ts.MkAbs(".chromium"),
	}
	run := func(extra ...string) (stdout, stderr []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard(120*time.Second))
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append(append(append([]string(nil), common...), extra...), url)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		cmd.Env = append(os.Environ(), "HOME="+ts.MkAbs(".chromium"))
		if err := cmd.Run(); err != nil {
			ts.Fatalf("browser: %s: %v\n%s", bin, err, errOut.Bytes())
		}
		return out.Bytes(), errOut.Bytes()
	}

	// --enable-logging=stderr --v=0 makes Chromium print every console message as a line with
	// "CONSOLE" in it.
	out, errOut := run("--enable-logging=stderr", "--v=0", "--dump-dom")
	var console []string
	for line := range strings.SplitSeq(string(errOut), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	if len(console) > 0 {
		ts.Fatalf("browser: %s logged to its console:\n%s", args[0], strings.Join(console, "\n"))
	}
	if !bytes.Contains(out, []byte("</html>")) {
		ts.Fatalf("browser: no DOM dumped for %s\n%s", args[0], errOut)
	}
	ts.Check(os.WriteFile(dom, out, 0o644))

	const width, height = 1280, 1600
	run("--screenshot="+shot, "--window-size=1280,1600")
	f, err := os.Open(shot)
	ts.Check(err)
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		ts.Fatalf("browser: screenshot %s: %v", args[1], err)
	}
	if cfg.Width != width || cfg.Height != height {
		ts.Fatalf("browser: screenshot %s is %dx%d, want %dx%d", args[1], cfg.Width, cfg.Height, width, height)
	}
	if dir := os.Getenv("GAUNTLET_SCREENSHOTS"); dir != "" {
		data, err := os.ReadFile(shot)
		ts.Check(err)
		ts.Check(os.MkdirAll(dir, 0o755))
		ts.Check(os.WriteFile(filepath.Join(dir, filepath.Base(shot)), data, 0o644))
	}
}
