package envid

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// What the tools read from their own configuration files besides the variables: npm's config
// (user and project .npmrc), which pnpm and yarn 1 read too, and Python's startup hooks in the
// user site and the project's virtual environment. Each changes what a gate runs without the
// gate's command or the project's code changing: `npm config set script-shell /bin/true` makes
// every `npm test` pass, a usercustomize.py runs before every test of every Python.

// npmSteeringKeys are the npm config keys that change what a script runs or how: the shell that
// runs it, whether it runs, the options of every node it starts. A registry, a cache, a token
// change none of that, and are not read.
var npmSteeringKeys = []string{"script-shell", "ignore-scripts", "node-options", "shell", "shell-emulator"}

// Keys of what toolFiles returns: NpmPrefix and the config's place ("user", "project") and key,
// PythonPrefix and the file's place and path under it.
const (
	NpmPrefix    = "npm config "
	PythonPrefix = "python "
)

const (
	// maxToolFileBytes bounds the read of one config or startup file: a few settings or lines.
	maxToolFileBytes = 1 << 20
	// maxStartupFiles bounds the .pth files named per user site, and maxSiteEntries the entries
	// of its directory read to find them.
	maxStartupFiles = 64
	maxSiteEntries  = 4096
)

// toolFiles are the digests of what steers the tools in their own files, by name: npm's steering
// keys in the user's and the project's .npmrc, and Python's startup files (sitecustomize.py,
// usercustomize.py, a .pth file of the user site, which may run code) in the user site and the
// project's virtual environment. Python is not started: its sites are found by their layout.
func toolFiles(env map[string]string, root string) map[string]string {
	out := map[string]string{}
	deadline := time.Now().Add(time.Second)
	for where, file := range npmrcFiles(env, root) {
		for k, v := range npmSteering(file, deadline) {
			out[NpmPrefix+k+" ("+where+" .npmrc)"] = sum(v)
		}
	}
	for where, dirs := range pythonSites(env, root) {
		for _, d := range dirs {
			for rel, digest := range startupFiles(d.abs, where == "user site", deadline) {
				out[PythonPrefix+where+" "+d.rel+"/"+rel] = digest
			}
		}
	}
	return out
}

// npmrcFiles are the .npmrc files npm reads, by place: the user's ($npm_config_userconfig, else
// ~/.npmrc) and the project's (its root's).
func npmrcFiles(env map[string]string, root string) map[string]string {
	out := map[string]string{}
	user := cmp.Or(env["npm_config_userconfig"], env["NPM_CONFIG_USERCONFIG"])
	if user == "" {
		if home := homeOf(env); home != "" {
			user = filepath.Join(home, ".npmrc")
		}
	}
	if user != "" {
		out["user"] = user
	}
	if root != "" {
		out["project"] = filepath.Join(root, ".npmrc")
	}
	return out
}

// npmSteering reads the steering keys an .npmrc sets (ini: key = value, ; and # comments,
// [sections] for scoped settings, the last value wins). None when there is no file.
func npmSteering(file string, deadline time.Time) map[string]string {
	data, err := safefile.ReadFile(file, maxToolFileBytes, deadline)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == ';' || line[0] == '#' || line[0] == '[' {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		k = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "_", "-")
		if slices.Contains(npmSteeringKeys, k) {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// siteDir is a site-packages directory: where it is, and its path under its place, which names it
// the same on every machine.
type siteDir struct{ abs, rel string }

// pythonSites are the site-packages directories whose startup files every Python of that version
// runs, by place: the user site (under $PYTHONUSERBASE, else the platform's default user base),
// and the project's virtual environment ($VIRTUAL_ENV, else .venv or venv in the root).
func pythonSites(env map[string]string, root string) map[string][]siteDir {
	out := map[string][]siteDir{}
	home := homeOf(env)
	switch base := env["PYTHONUSERBASE"]; {
	case base != "":
		out["user site"] = sitesUnder(base, userSiteGlobs())
	case runtime.GOOS == "windows":
		out["user site"] = sitesUnder(filepath.Join(env["APPDATA"], "Python"), userSiteGlobs())
	case home != "":
		out["user site"] = sitesUnder(filepath.Join(home, ".local"), userSiteGlobs())
		if runtime.GOOS == "darwin" {
			out["user site"] = append(out["user site"], sitesUnder(filepath.Join(home, "Library", "Python"), []string{"*/lib/python/site-packages"})...)
		}
	}
	venvs := []string{env["VIRTUAL_ENV"]}
	if root != "" {
		venvs = append(venvs, filepath.Join(root, ".venv"), filepath.Join(root, "venv"))
	}
	for _, v := range venvs {
		if v != "" {
			out["virtual environment"] = append(out["virtual environment"], sitesUnder(v, []string{"lib/python*/site-packages", "Lib/site-packages"})...)
		}
	}
	return out
}

// userSiteGlobs are the user site's directories under a user base: lib/pythonX.Y on Unix,
// PythonXY on Windows.
func userSiteGlobs() []string {
	if runtime.GOOS == "windows" {
		return []string{"Python*/site-packages"}
	}
	return []string{"lib/python*/site-packages"}
}

// sitesUnder are the directories under base that globs match.
func sitesUnder(base string, globs []string) []siteDir {
	var out []siteDir
	for _, g := range globs {
		matches, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(g)))
		for _, m := range matches {
			if rel, err := filepath.Rel(base, m); err == nil {
				out = append(out, siteDir{abs: m, rel: filepath.ToSlash(rel)})
			}
		}
	}
	return out
}

// startupFiles are the digests of the files of a site-packages directory Python runs at its
// start, by name: sitecustomize.py and usercustomize.py, and with pth its .pth files (a line of
// one that starts with import runs). A virtual environment's .pth files are what installing a
// package writes, and are left to the install; its directory, thousands of packages, is not
// listed.
func startupFiles(dir string, pth bool, deadline time.Time) map[string]string {
	names := []string{"sitecustomize.py", "usercustomize.py"}
	if pth {
		names = append(names, pthFiles(dir)...)
	}
	out := map[string]string{}
	for _, name := range names {
		data, err := safefile.ReadFile(filepath.Join(dir, name), maxToolFileBytes, deadline)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			out[name] = "unreadable"
		default:
			out[name] = sum(string(data))
		}
	}
	return out
}

// pthFiles are the .pth files of a user site, at most maxStartupFiles of them, sorted.
func pthFiles(dir string) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	names, _ := f.Readdirnames(maxSiteEntries)
	f.Close()
	var out []string
	for _, name := range names {
		if strings.HasSuffix(name, ".pth") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), maxStartupFiles)]
}

// homeOf is the home directory the tools read their user config from: the environment's HOME
// (USERPROFILE on Windows), else this process's.
func homeOf(env map[string]string) string {
	if h := cmp.Or(env["HOME"], env["USERPROFILE"]); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
