// Package session keeps what an agent session is judged against, pinned at the session's first
// hook call and kept beside the user's key (internal/seal), out of the work tree's reach: the
// commit the session started from, the config that commit holds, and the environment the
// session started in. Every later stop of the session measures the change from that commit,
// whatever the refs say by then: `git branch -f main HEAD`, `reset --soft`, a rewritten
// .git/shallow or a deleted branch move nothing that is read here.
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/seal"
)

// How says which hook call pinned a session.
const (
	PinnedAtStart    = "session start"
	PinnedAtEdit     = "first after-edit"
	PinnedAtStop     = "first stop"
	PinnedAtJudge    = "background judge"
	sealPurpose      = "session base"
	sessionsDir      = "sessions"
	maxRecordBytes   = 6 << 20 // a config of at most 1 MiB, base64, the dependency executables (DepBins) and packages (DepPackages), and a few ids
	maxSessionsKept  = 256
	readRecordBudget = 5 * time.Second
)

// Record is one session's pinned base.
type Record struct {
	Project string `json:"project"`
	Session string `json:"session"`
	// Base is the commit the change is measured from; "" when the repository had no commit yet
	// (the change is then everything, against the empty tree).
	Base string `json:"base"`
	// Head is HEAD when the session was pinned, for the reader.
	Head string `json:"head,omitempty"`
	// How names the hook call that pinned it (PinnedAtStart...), and Pinned when.
	How    string    `json:"how"`
	Pinned time.Time `json:"pinned"`
	// ConfigPath is the config's path relative to the project root at the base ("" when the
	// base has none), and Config its bytes there: the gates that judge every stop of the session.
	ConfigPath string `json:"config_path,omitempty"`
	Config     []byte `json:"config,omitempty"`
	// Env is the environment the session started in: what steers the tools (see envid).
	Env map[string]string `json:"env,omitempty"`
	// EnvFormat is envid.Format when the record was made: Env is compared only in that form.
	EnvFormat int `json:"env_format,omitempty"`
	// Deps are the installed dependency directories (DependencyDirs) the project root had.
	Deps []string `json:"deps,omitempty"`
	// Filters are the git filter drivers configured at the start (git.FilterDrivers), with their
	// settings, when FiltersKnown: a driver added or rewritten since is the change's steering of
	// what git shows, not the project's (a record made before this field compares nothing).
	Filters      []string `json:"filters,omitempty"`
	FiltersKnown bool     `json:"filters_known,omitempty"`
	// Bins are the executables of the dependency directories at the start (DepBins), when
	// BinsKnown: the base's checkout borrows these directories, so one removed or replaced since
	// breaks the base as well, and the base's failure would prove nothing.
	Bins      map[string]string `json:"bins,omitempty"`
	BinsKnown bool              `json:"bins_known,omitempty"`
	// Packages are the packages the npm lockfile lists, as installed at the start (DepPackages),
	// when PackagesKnown: a version swapped in the borrowed node_modules breaks the base as well.
	Packages      map[string]string `json:"packages,omitempty"`
	PackagesKnown bool              `json:"packages_known,omitempty"`
	// Dists are the distributions of the virtualenvs at the start (DepDists), when DistsKnown.
	Dists      []string `json:"dists,omitempty"`
	DistsKnown bool     `json:"dists_known,omitempty"`
	// Inputs are the project's small ignored inputs (a .env) at the start, by path: the base's
	// checkout is lent these rather than what the agent may have made of them since.
	Inputs map[string][]byte `json:"inputs,omitempty"`
	// Remotes are the repository's remotes and their URLs: only these vouch for upstream work.
	Remotes map[string]string `json:"remotes,omitempty"`
	// RemoteBranches are the remote-tracking branches (REMOTE/BRANCH) the repository had at the
	// start: only a fetch of a branch that existed then brings upstream work. A branch the session
	// pushed and fetched is its own.
	RemoteBranches []string `json:"remote_branches,omitempty"`
	// Identities are the e-mail addresses the session commits under (git's user.email and the
	// GIT_AUTHOR_EMAIL and GIT_COMMITTER_EMAIL it started with): a commit of theirs made after the
	// start is the session's own work, wherever it was pushed.
	Identities []string `json:"identities,omitempty"`
	// URLRules are git's url.*.insteadOf rules at the start: rules changed since may send the
	// check of upstream work to a repository of the session's own.
	URLRules string `json:"url_rules,omitempty"`
	// Late says the session had stopped before it was pinned: its record was removed (or pruned)
	// and this one pins from wherever the refs are now, which the agent may have moved.
	Late bool   `json:"late,omitempty"`
	MAC  string `json:"mac,omitempty"`
}

// SealField implements seal.Sealed.
func (r *Record) SealField() *string { return &r.MAC }

// ErrTampered means a record fails its seal, or names another project or session: somebody else
// than gauntlet wrote it.
var ErrTampered = errors.New("fails its check")

// ErrNoKey means nothing can be pinned or believed: without the user's key a record anyone can
// write would be believed.
var ErrNoKey = errors.New("no key to seal the session's base")

// ErrUnusable means a record could not be read or written for another reason than its absence
// (its folder replaced by a file, made unreadable): the agent runs as the user and reaches the
// user's state directory, so a pin that cannot be used is never taken for no pin.
var ErrUnusable = errors.New("cannot be used")

// path is where a session's record of a project is kept.
func path(key *seal.Key, project, session string) string {
	sum := sha256.Sum256([]byte(session))
	return key.ProjectFile(project, filepath.Join(sessionsDir, hex.EncodeToString(sum[:12])+".json"))
}

// Load reads the session's record for project. A record that is missing is (nil, nil); one that
// fails its seal or names another project or session is an error: the caller decides what a
// tampered pin means (it is never believed).
func Load(project, session string) (*Record, error) {
	key, err := seal.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoKey, err)
	}
	return load(key, project, session)
}

func load(key *seal.Key, project, session string) (*Record, error) {
	var r Record
	p := path(key, project, session)
	found, err := readSealed(key, p, sealPurpose, project, &r)
	switch {
	case err != nil && !errors.Is(err, ErrTampered):
		return nil, fmt.Errorf("the session's base %w: %w", ErrUnusable, err)
	case err != nil:
		return nil, fmt.Errorf("the session's base: %w", err)
	case !found:
		return nil, nil
	case r.Project != project || r.Session != session:
		return nil, fmt.Errorf("the session's base: %s %w", p, ErrTampered)
	}
	return &r, nil
}

// readSealed decodes the file at p into v. found is false when there is none; a file that does
// not decode or fails its seal is ErrTampered.
func readSealed(key *seal.Key, p, purpose, project string, v seal.Sealed) (found bool, err error) {
	data, err := safefile.ReadFile(p, maxRecordBytes, time.Now().Add(readRecordBudget))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if json.Unmarshal(data, v) != nil || !verified(key, purpose, project, data, v) {
		return true, fmt.Errorf("%s %w", p, ErrTampered)
	}
	return true, nil
}

// verified says whether v, decoded from data, carries its seal: first over the file's bytes as
// written (seal.Key.VerifyEncoded, no encoding of v again), else as decoded (seal.VerifyJSON).
func verified(key *seal.Key, purpose, project string, data []byte, v seal.Sealed) bool {
	return key.VerifyEncoded(purpose, project, data) || key.VerifyJSON(purpose, project, v)
}

// writeSealed seals v and replaces the file at p with it.
func writeSealed(key *seal.Key, p, purpose, project string, v seal.Sealed) error {
	if err := key.SealJSON(purpose, project, v); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return seal.WriteProjectFile(p, data)
}

// Find looks for the session's record in dir and each directory above it, the way the config is
// found: a stop whose config was deleted still finds the project its session pinned. It reads
// no git and opens only the files that exist.
func Find(dir, session string) (*Record, error) {
	key, err := seal.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoKey, err)
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Stat(path(key, d, session)); err == nil {
			return load(key, d, session)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, nil
		}
		d = parent
	}
}

// Pin keeps r as the session's base unless the session already has one, which is returned
// instead: the first hook call of a session decides, and nothing later moves it.
func Pin(r *Record) (*Record, error) {
	key, err := seal.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoKey, err)
	}
	if old, err := load(key, r.Project, r.Session); old != nil || err != nil {
		return old, err
	}
	p := path(key, r.Project, r.Session)
	if err := writeSealed(key, p, sealPurpose, r.Project, r); err != nil {
		return nil, fmt.Errorf("the session's base %w: %w", ErrUnusable, err)
	}
	pruneSessions(filepath.Dir(p), maxSessionsKept)
	return r, nil
}

// pruneSessions keeps the newest records of a project: a session ends, and nothing says when.
func pruneSessions(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= keep {
		return
	}
	type aged struct {
		name string
		mod  time.Time
	}
	var files []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			files = append(files, aged{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(files, func(a, b aged) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:max(0, len(files)-keep)] {
		os.Remove(filepath.Join(dir, f.name))
	}
}

// DependencyDirs are the directories at a project's root that hold its installed dependencies,
// ignored by git: the gates need them, the base's checkout borrows them, and one that existed when
// the session started and is gone at its stop was removed during the session.
var DependencyDirs = []string{"node_modules", ".venv", "venv"}

// binDirs are the directories of executables inside the dependency directories.
var binDirs = []string{"node_modules/.bin", ".venv/bin", "venv/bin"}

// maxBins bounds the entries read per directory of executables: a huge one is named by its
// first entries only.
const maxBins = 2048

// DepBins names each executable of root's dependency directories (binDirs) by what it is: a
// link's target and the file it resolves to, or a file's size, mode and modification time.
// Reading it is one directory listing and an lstat (and a stat for a link) per entry, without
// opening any file.
func DepBins(root string) map[string]string {
	out := map[string]string{}
	for _, dir := range binDirs {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(maxBins)
		f.Close()
		for _, name := range names {
			if id, ok := binID(filepath.Join(root, filepath.FromSlash(dir), name)); ok {
				out[dir+"/"+name] = id
			}
		}
	}
	return out
}

// binID is what one executable is, for DepBins.
func binID(path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		if err != nil {
			return "", false
		}
		// What runs is the file the link resolves to: node_modules/.bin/vitest stays the same
		// link while ../vitest/vitest.mjs is rewritten to exit 0.
		if resolved, err := os.Stat(path); err == nil {
			return "link " + target + " to " + fileID(resolved), true
		}
		return "link " + target, true
	}
	return fileID(info), true
}

// fileID is what a file is without opening it: its size, mode and modification time.
func fileID(info os.FileInfo) string {
	return fmt.Sprintf("file %d %s %d", info.Size(), info.Mode(), info.ModTime().UnixNano())
}

// ChangedBins names the executables of the record's dependency directories removed or replaced
// since the session's start (an executable added, a package installed, is not named).
func (r *Record) ChangedBins(root string) []string {
	if !r.BinsKnown {
		return nil
	}
	now := DepBins(root)
	var out []string
	for _, name := range slices.Sorted(maps.Keys(r.Bins)) {
		switch id, ok := now[name]; {
		case !ok:
			out = append(out, name+" removed")
		case id != r.Bins[name] && !strings.HasPrefix(id, r.Bins[name]+" to "):
			// A record made before links were resolved names the link alone.
			out = append(out, name+" replaced")
		}
	}
	return out
}

// PresentDeps are the dependency directories root has.
func PresentDeps(root string) []string {
	var out []string
	for _, d := range DependencyDirs {
		if info, err := os.Stat(filepath.Join(root, d)); err == nil && info.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// AddedFilters names the filter drivers configured in root now that the session did not start with,
// or whose settings changed since.
func (r *Record) AddedFilters(now []string) []string {
	if !r.FiltersKnown {
		return nil
	}
	var out []string
	for _, d := range now {
		if !slices.Contains(r.Filters, d) {
			name, _, _ := strings.Cut(d, "\x00")
			out = append(out, "git filter driver "+name+" added or changed")
		}
	}
	return out
}

// MissingDeps are the dependency directories the record says root had and it has no longer.
func (r *Record) MissingDeps(root string) []string {
	now := PresentDeps(root)
	var out []string
	for _, d := range r.Deps {
		if !slices.Contains(now, d) {
			out = append(out, d)
		}
	}
	return out
}

// Advance is where a session's base moved to, as of one HEAD: the upstream commits the session
// merged or rebased onto, verified with the remote itself (see the stop hook's upstream), are not
// the session's work. It is kept beside the record, sealed, so that the check runs once per HEAD.
type Advance struct {
	Project string `json:"project"`
	Session string `json:"session"`
	Head    string `json:"head"`
	// Base is the commit the change is measured from at Head: the pinned base, or the upstream
	// commit the session's work now sits on; Via names the remote branch that vouched for it.
	Base       string `json:"base"`
	Via        string `json:"via,omitempty"`
	ConfigPath string `json:"config_path,omitempty"`
	Config     []byte `json:"config,omitempty"`
	MAC        string `json:"mac,omitempty"`
}

// SealField implements seal.Sealed.
func (a *Advance) SealField() *string { return &a.MAC }

const sealAdvance = "session base advance"

func advancePath(key *seal.Key, project, session string) string {
	return strings.TrimSuffix(path(key, project, session), ".json") + ".advance.json"
}

// LoadAdvance is the advance kept for the session at head; nil when none is kept for that HEAD
// (or it fails its check: it is then computed again).
func LoadAdvance(project, session, head string) *Advance {
	key, err := seal.Load()
	if err != nil {
		return nil
	}
	var a Advance
	found, err := readSealed(key, advancePath(key, project, session), sealAdvance, project, &a)
	if !found || err != nil || a.Project != project || a.Session != session || a.Head != head {
		return nil
	}
	return &a
}

// SaveAdvance keeps a for its HEAD, replacing what was kept for another.
func SaveAdvance(a *Advance) error {
	key, err := seal.Load()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoKey, err)
	}
	return writeSealed(key, advancePath(key, a.Project, a.Session), sealAdvance, a.Project, a)
}
