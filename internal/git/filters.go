package git

import (
	"bytes"
	"errors"
	"io/fs"
	"time"

	"context"
	"fmt"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// maxFilterConfig bounds the listing of the filter drivers configured: a few lines each.
const maxFilterConfig = 64 << 10

// lfsDriver is the one filter driver left to run: Git LFS, configured as `git lfs install`
// writes it. Its clean and smudge map a large file to its pointer and back, which every repository
// using LFS needs to see its files as they are committed; any other command under the name lfs is
// set aside like any other driver.
var lfsDriver = map[string]string{
	"clean":    "git-lfs clean -- %f",
	"smudge":   "git-lfs smudge -- %f",
	"process":  "git-lfs filter-process",
	"required": "true",
}

// filterCache remembers the drivers configured, per directory, while the config files that
// could declare one are unchanged: a stop asks git many times in the same directory.
var filterCache sync.Map // dir -> filterEntry

type filterEntry struct {
	stamp   string
	drivers []string
}

// Filters are the names of the filter drivers configured for dir that gauntlet's git calls set
// aside (all but Git LFS as `git lfs install` writes it). A filter driver is the repository's own
// steering of what git sees: its config and the attributes that apply it (`.gitattributes`,
// `.git/info/attributes`, which outranks every other) are in the judged agent's reach, and a
// clean filter answering with HEAD's bytes (`git show HEAD:%f`) makes every edit invisible to
// git status and git diff; a smudge filter rewrites the base's checkout.
func Filters(ctx context.Context, dir string) []string {
	var names []string
	for _, d := range FilterDrivers(ctx, dir) {
		name, _, _ := strings.Cut(d, "\x00")
		names = append(names, name)
	}
	return names
}

// FilterDrivers are the filter drivers Filters names, each with its settings ("NAME\0VAR=VALUE\0
// ..."), sorted: what a session records at its start, so that a driver added or rewritten since
// is named.
func FilterDrivers(ctx context.Context, dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	paths := configFiles(abs)
	stamp := configStamp(paths)
	if known, ok := filterCache.Load(abs); ok && known.(filterEntry).stamp == stamp {
		return known.(filterEntry).drivers
	}
	var drivers []string
	if mayDeclareFilters(paths) {
		drivers = listFilters(ctx, abs)
	}
	filterCache.Store(abs, filterEntry{stamp: stamp, drivers: drivers})
	return drivers
}

// filterEnv is the environment that turns every filter driver in names off: no clean, no smudge,
// no long-running process, and not required (a required driver without a command is an error).
// The settings go in GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n after those environ already holds, not in
// `-c`, which cannot name a driver whose name holds "=".
func filterEnv(names []string, environ []string) []string {
	if len(names) == 0 {
		return nil
	}
	n := 0
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	var env []string
	for _, name := range names {
		for _, kv := range [][2]string{{"clean", ""}, {"smudge", ""}, {"process", ""}, {"required", "false"}} {
			env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=filter.%s.%s", n, name, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n, kv[1]))
			n++
		}
	}
	return append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(n))
}

// listFilters asks git for the filter settings in force in dir, from every config it reads.
func listFilters(ctx context.Context, dir string) []string {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "config", "--null", "--get-regexp", `^filter\.`)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = waitDelay
	out := &CappedBuffer{Limit: maxFilterConfig}
	cmd.Stdout = out
	// Exit status 1 is "no such setting"; a config git cannot read fails every later call anyway.
	if cmd.Run() != nil {
		return nil
	}
	return parseFilters(out.Bytes())
}

// parseFilters reads `git config --null --get-regexp` records ("filter.NAME.VAR\nVALUE\0") into the
// drivers to set aside, with their settings, sorted. NAME may hold dots: VAR is after the last one.
func parseFilters(data []byte) []string {
	drivers := map[string]map[string]string{}
	for _, rec := range SplitNUL(data) {
		key, value, _ := strings.Cut(rec, "\n")
		rest, ok := strings.CutPrefix(key, "filter.")
		dot := strings.LastIndexByte(rest, '.')
		if !ok || dot <= 0 {
			continue
		}
		name, variable := rest[:dot], strings.ToLower(rest[dot+1:])
		if drivers[name] == nil {
			drivers[name] = map[string]string{}
		}
		drivers[name][variable] = value
	}
	var out []string
	for name, settings := range drivers {
		if isLFS(name, settings) {
			continue
		}
		d := name
		for _, variable := range slices.Sorted(maps.Keys(settings)) {
			d += "\x00" + variable + "=" + settings[variable]
		}
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// isLFS reports the Git LFS driver as `git lfs install` writes it, and nothing else.
func isLFS(name string, settings map[string]string) bool {
	if name != "lfs" {
		return false
	}
	for variable, value := range settings {
		if want, ok := lfsDriver[variable]; !ok || strings.TrimSpace(value) != want {
			return false
		}
	}
	return true
}

// systemConfigs are where git's system config lives with the usual prefixes (/usr, /usr/local,
// Homebrew); GIT_CONFIG_SYSTEM names another.
var systemConfigs = []string{"/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig"}

// configFiles are the config files a filter driver can be declared in for dir: the repository's
// own, the user's and the system's.
func configFiles(dir string) []string {
	var paths []string
	if layout, err := FindLayout(dir); err == nil {
		paths = append(paths, filepath.Join(layout.CommonDir, "config"), filepath.Join(layout.CommonDir, "config.worktree"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		paths = append(paths, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		paths = append(paths, filepath.Join(xdg, "git", "config"))
	}
	for _, name := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if p := os.Getenv(name); p != "" {
			paths = append(paths, p)
		}
	}
	return append(paths, systemConfigs...)
}

// configStamp names the state of configFiles (their size and time) and of the variables that
// add settings: an include elsewhere is read again when one of these changes.
func configStamp(paths []string) string {
	var b strings.Builder
	for _, name := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_NOSYSTEM"} {
		b.WriteString(name + "=" + os.Getenv(name) + "\x00")
	}
	for _, p := range paths {
		b.WriteString(p)
		if info, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, " %d %d", info.ModTime().UnixNano(), info.Size())
		}
		b.WriteByte(0)
	}
	return b.String()
}

// maxScannedConfig bounds the read of one config file by mayDeclareFilters.
const maxScannedConfig = 1 << 20

// mayDeclareFilters says whether git must be asked for the filter drivers: when a config file
// (or a variable adding settings) could declare one, or a file it does not read (a linked worktree's
// config.worktree) could. Files that mention neither "filter" nor an
// include declare none, and the common case then costs no git process on each call of a stop.
func mayDeclareFilters(paths []string) bool {
	if os.Getenv("GIT_CONFIG_PARAMETERS") != "" || os.Getenv("GIT_CONFIG_COUNT") != "" {
		return true
	}
	deadline := time.Now().Add(Timeout)
	for _, p := range paths {
		if p == os.DevNull { // GIT_CONFIG_GLOBAL=/dev/null: no settings at all
			continue
		}
		data, err := safefile.ReadFile(p, maxScannedConfig, deadline)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return true
		}
		lower := bytes.ToLower(data)
		// worktreeConfig: a linked worktree's own config.worktree, in its git directory, is read.
		if bytes.Contains(lower, []byte("filter")) || bytes.Contains(lower, []byte("include")) || bytes.Contains(lower, []byte("worktreeconfig")) {
			return true
		}
	}
	return false
}
