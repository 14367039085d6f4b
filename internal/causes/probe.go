package causes

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// A signature is text, and text is cheap: a test about disk-full handling prints "no space left
// on device", a runaway allocation ends in "fatal error: runtime: out of memory", and `go 1.99`
// typed into go.mod makes go say it is too old. So an entry that would turn a failure into
// `error` names a probe of the environment it blames, run only once the signature matched and
// the gate ended; a probe that disagrees (41 GB are free, the registry answers, Go 1.99 does not
// exist) leaves the gate failing and says why. A probe that cannot look (an unsupported system,
// a deadline) does not excuse either: the agent's failure is the safe reading.

// Probe names what a signature's probe checks.
type Probe string

const (
	// ProbeDisk: the free space of the worktree's and the temp dir's filesystems is low.
	ProbeDisk Probe = "disk"
	// ProbeMemory: the system or the cgroup killed a process for memory during the gate, or the
	// memory available now is low.
	ProbeMemory Probe = "memory"
	// ProbeNetwork: the host the output names (or the signature's registry, or the proxy the gate
	// goes through) cannot be connected to within a short deadline.
	ProbeNetwork Probe = "network"
	// ProbeDocker: the Docker daemon's socket (DOCKER_HOST) does not accept a connection.
	ProbeDocker Probe = "docker"
	// ProbeVersion: the version the project requires is a released one (Go, Rust, Python,
	// Node.js release cadences, counted from the date), so that the installed one is too old.
	ProbeVersion Probe = "version"
	// ProbeCommand: the command the shell did not find is not on the gate's PATH.
	ProbeCommand Probe = "command"
	// ProbeNodeModules: node_modules (or the tool in node_modules/.bin, or the module path the
	// line names) is not there.
	ProbeNodeModules Probe = "node-modules"
	// ProbePath: the file the line names as missing does not exist.
	ProbePath Probe = "path"
)

// Environment is what the probes look at. Machine is the real one; only tests replace it.
type Environment interface {
	// DiskFree is the space left to unprivileged writers on the filesystem of path.
	DiskFree(path string) (free uint64, err error)
	// Memory is the memory available now and how many processes the kernel has killed for
	// memory so far (system-wide and in gauntlet's cgroup).
	Memory() (MemoryState, error)
	// Dial connects to addr ("host:port" over tcp, a socket path over unix) and hangs up.
	Dial(ctx context.Context, network, addr string) error
	// Now is the time the release cadences are counted to.
	Now() time.Time
}

// MemoryState is one look at the memory.
type MemoryState struct {
	Available uint64 // bytes a new allocation could get: MemAvailable, or the cgroup's headroom if smaller
	Total     uint64 // 0 when unknown
	OOMKills  uint64 // out-of-memory kills counted so far, system and cgroup together
}

// Machine is the environment the probes look at. Tests of the whole program replace it (from
// their TestMain) to simulate a full disk or a machine out of memory; nothing else may.
var Machine Environment = system{}

// Thresholds below which the disk or the memory counts as exhausted, and the deadlines of probes.
const (
	LowDiskBytes   = 1 << 30
	LowMemoryBytes = 256 << 20
	probeTimeout   = 5 * time.Second
	dialTimeout    = 3 * time.Second
	// maxHosts bounds the connections one probe makes.
	maxHosts = 2
)

// Options tell a reader where the gate ran, for its probes.
type Options struct {
	// Root is the worktree, Dir the gate's directory (absolute); Env is the gate's environment
	// (NAME=value, later entries win), for PATH, TMPDIR, proxies and DOCKER_HOST.
	Root, Dir string
	Env       []string
	// MemoryBefore, when set, gives the memory's state before the gate started, shared by the
	// gates of one run (see RunMemory): reading /proc for every gate cost more than the gates of
	// `true` it watched. nil reads it when the reader is made.
	MemoryBefore func() (MemoryState, error)
}

// RunMemory reads the memory's state once, at its first call, for every reader of a run: an
// OOM kill that happened while the run went on then counts for each gate that ran during it and
// names a memory cause in its own output.
func RunMemory() func() (MemoryState, error) {
	return sync.OnceValues(func() (MemoryState, error) {
		if Machine != nil {
			return Machine.Memory()
		}
		return system{}.Memory()
	})
}

func (o Options) getenv(name string) string {
	for i := len(o.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(o.Env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// verdict is what a probe concluded: agree, or why not.
type verdict struct {
	agree bool
	why   string // when !agree: the evidence, "41 GB are free in /work"
}

func agree() verdict              { return verdict{agree: true} }
func disagree(why string) verdict { return verdict{why: why} }
func cannotCheck(err error) verdict {
	return verdict{why: "it could not be checked (" + err.Error() + ")"}
}

// probe runs sig's probe within probeTimeout. A probe stuck in a system call (statfs on a hung
// network filesystem) is abandoned at the deadline: its goroutine ends when the call returns.
func (r *Reader) probe(ctx context.Context, sig Signature, line string) verdict {
	if sig.Probe == "" {
		return agree()
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	done := make(chan verdict, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- cannotCheck(fmt.Errorf("probe panicked: %v", p))
			}
		}()
		done <- r.runProbe(ctx, sig, line)
	}()
	select {
	case v := <-done:
		return v
	case <-ctx.Done():
		return cannotCheck(fmt.Errorf("no answer within %s", probeTimeout))
	}
}

func (r *Reader) runProbe(ctx context.Context, sig Signature, line string) verdict {
	env := r.env()
	switch sig.Probe {
	case ProbeDisk:
		return probeDisk(env, r.opts)
	case ProbeMemory:
		return probeMemory(env, r.memBefore, r.memErr)
	case ProbeNetwork:
		return probeNetwork(ctx, env, r.opts, sig, line)
	case ProbeDocker:
		return probeDocker(ctx, env, r.opts)
	case ProbeVersion:
		return probeVersion(env.Now(), sig, line)
	case ProbeCommand:
		return probeCommand(r.opts, line)
	case ProbeNodeModules:
		return probeNodeModules(r.opts, line)
	case ProbePath:
		return probePath(line)
	}
	return agree()
}

func probeDisk(env Environment, opts Options) verdict {
	dirs := []string{cmp.Or(opts.Dir, opts.Root), cmp.Or(opts.getenv("TMPDIR"), os.TempDir())}
	var ample []string
	var errs []error
	for _, d := range dirs {
		if d == "" {
			continue
		}
		free, err := env.DiskFree(d)
		switch {
		case err != nil:
			errs = append(errs, err)
		case free < LowDiskBytes:
			return agree()
		default:
			verb := " are free"
			if len(ample) > 0 {
				verb = ""
			}
			ample = append(ample, fmt.Sprintf("%s%s in %s", humanBytes(free), verb, d))
		}
	}
	if len(ample) == 0 {
		return cannotCheck(errors.Join(errs...))
	}
	return disagree(strings.Join(ample, " and "))
}

func probeMemory(env Environment, before MemoryState, beforeErr error) verdict {
	now, err := env.Memory()
	if err != nil {
		return cannotCheck(err)
	}
	if beforeErr == nil && now.OOMKills > before.OOMKills {
		return agree()
	}
	if now.Available < LowMemoryBytes || now.Total > 0 && now.Available < now.Total/20 {
		return agree()
	}
	why := fmt.Sprintf("%s are available", humanBytes(now.Available))
	if beforeErr == nil {
		why += " and no process was killed for memory during the gate"
	}
	return disagree(why)
}

// registries are the hosts a signature's tool talks to when the line names none.
var registries = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"cargo-registry-unreachable":   "index.crates.io:443",
		"go-toolchain-download-failed": "proxy.golang.org:443",
		"go-proxy-unreachable":         "proxy.golang.org:443",
		"npm-registry-unreachable":     "registry.npmjs.org:443",
		"pnpm-registry-unreachable":    "registry.npmjs.org:443",
		"yarn-registry-unreachable":    "registry.yarnpkg.com:443",
		"node-registry-unreachable":    "registry.npmjs.org:443",
		"pip-index-unreachable":        "pypi.org:443",
		"uv-index-unreachable":         "pypi.org:443",
	}
})

var (
	urlHost    = lazyRegexp(`\bhttps?://[^\s"'` + "`" + `<>]+`)
	lookupHost = lazyRegexp(`\b(?:lookup|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Could not resolve host:|resolve host) ([A-Za-z0-9][A-Za-z0-9.-]*\.[A-Za-z]{2,})\b`)
)

// probeNetwork connects to the hosts the line names (URLs, DNS lookups), else to the
// signature's registry; through the gate's proxy when it has one, since that is where the tool
// connects. The failure is the environment's when one of them cannot be connected to.
func probeNetwork(ctx context.Context, env Environment, opts Options, sig Signature, line string) verdict {
	var addrs []string
	add := func(a string) {
		if a != "" && len(addrs) < maxHosts && !slices.Contains(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	for _, u := range urlHost().FindAllString(line, maxHosts) {
		add(hostPort(u))
	}
	for _, m := range lookupHost().FindAllStringSubmatch(line, maxHosts) {
		add(net.JoinHostPort(m[1], "443"))
	}
	if len(addrs) == 0 {
		add(registries()[sig.ID])
	}
	if proxy := proxyOf(opts); proxy != "" {
		addrs = []string{proxy}
	}
	if len(addrs) == 0 {
		return agree()
	}
	for _, a := range addrs {
		if err := dialOnce(ctx, env, "tcp", a); err != nil {
			return agree()
		}
	}
	return disagree(strings.Join(addrs, " and ") + " accept connections")
}

func probeDocker(ctx context.Context, env Environment, opts Options) verdict {
	host := cmp.Or(opts.getenv("DOCKER_HOST"), "unix:///var/run/docker.sock")
	u, err := url.Parse(host)
	if err != nil {
		return agree()
	}
	network, addr := u.Scheme, u.Host
	switch u.Scheme {
	case "unix":
		addr = u.Path
	case "tcp":
	default:
		return agree() // ssh:// and the like: nothing a dial can tell
	}
	if err := dialOnce(ctx, env, network, addr); err != nil {
		return agree()
	}
	return disagree(fmt.Sprintf("the Docker daemon accepts connections at %s", host))
}

// hostPort is the host:port a URL connects to.
func hostPort(raw string) string {
	u, err := url.Parse(strings.TrimRight(raw, ".,;:)]}'\""))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// proxyOf is the proxy the gate's tools go through, as host:port; "" when none is set.
func proxyOf(opts Options) string {
	for _, name := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
		if v := opts.getenv(name); v != "" {
			if !strings.Contains(v, "://") {
				v = "http://" + v
			}
			return hostPort(v)
		}
	}
	return ""
}

// dials remembers each connection's outcome for the rest of the process (one run): a probe is
// never network-chatty, however many gates name the same host.
var dials sync.Map // network+" "+addr -> error (nil stored as errNone)

var errNone = errors.New("")

func dialOnce(ctx context.Context, env Environment, network, addr string) error {
	key := network + " " + addr
	if v, ok := dials.Load(key); ok {
		if v.(error) == errNone {
			return nil
		}
		return v.(error)
	}
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	err := env.Dial(ctx, network, addr)
	stored := err
	if err == nil {
		stored = errNone
	}
	dials.Store(key, stored)
	return err
}

// probeCommand: "sh: 1: go: not found" is the environment's only when go is not on the PATH
// the gate has.
func probeCommand(opts Options, line string) verdict {
	prog, found := notFoundProgram(line)
	if !found {
		return agree()
	}
	if path, ok := lookPath(prog, opts.getenv("PATH"), opts.Dir); ok {
		return disagree(fmt.Sprintf("%s is at %s on the gate's PATH", prog, path))
	}
	return agree()
}

// commandNotFound is a program's name (never a path) in the words of whatever looked for it: sh
// and bash, zsh, make, env.
var commandNotFound = lazyRegexp(`: ([^\s:/]+): (?:command )?not found$|:\d+: command not found: ([^\s:/]+)$|make(?:\[\d+\])?: ([^\s:/]+): (?:No such file or directory|Command not found)$|^(?:\S*/)?env: ['‘]([^\s:/'’]+)['’]: No such file or directory$`)

// notFoundProgram is the program a not-found line names; false for a path or another line.
func notFoundProgram(line string) (string, bool) {
	m := commandNotFound().FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return cmp.Or(m[1], m[2], m[3], m[4]), true
}

// lookPath finds an executable file named name in the directories of pathList.
func lookPath(name, pathList, dir string) (string, bool) {
	for _, d := range filepath.SplitList(pathList) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) && dir != "" {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

var (
	missingModulePath = lazyRegexp(`Cannot find module '([^']*[/\\]node_modules[/\\][^']*)'`)
	missingJSTool     = lazyRegexp(`(?:: ([^\s:/]+): not found$|Command "([^"]+)" not found|missing packages and no YES option: \["(@?[^@"]+)@?)`)
)

// probeNodeModules: node_modules, the tool in node_modules/.bin, or the module path named, is
// not there in the gate's directory or a directory above it up to the root.
func probeNodeModules(opts Options, line string) verdict {
	if m := missingModulePath().FindStringSubmatch(line); m != nil {
		p := m[1]
		if !filepath.IsAbs(p) {
			p = filepath.Join(opts.Dir, p)
		}
		if _, err := os.Stat(p); err == nil {
			return disagree(m[1] + " exists")
		}
		return agree()
	}
	tool := ""
	if m := missingJSTool().FindStringSubmatch(line); m != nil {
		tool = filepath.Base(cmp.Or(m[1], m[2], m[3]))
	}
	for dir := opts.Dir; dir != ""; dir = parentWithin(dir, opts.Root) {
		nm := filepath.Join(dir, "node_modules")
		if tool != "" {
			if _, err := os.Stat(filepath.Join(nm, ".bin", tool)); err == nil {
				return disagree(filepath.Join(nm, ".bin", tool) + " is installed")
			}
			continue
		}
		if info, err := os.Stat(nm); err == nil && info.IsDir() {
			return disagree(nm + " is installed")
		}
	}
	return agree()
}

// parentWithin is dir's parent while it is still inside root; "" past it.
func parentWithin(dir, root string) string {
	if root == "" || filepath.Clean(dir) == filepath.Clean(root) {
		return ""
	}
	parent := filepath.Dir(dir)
	if rel, err := filepath.Rel(root, parent); err != nil || !filepath.IsLocal(rel) && rel != "." {
		return ""
	}
	return parent
}

var missingFile = lazyRegexp(`(?:Executable doesn't exist at|is installed in:|executable not found at:) (\S+)`)

// probePath: the file the line says is missing does not exist.
func probePath(line string) verdict {
	m := missingFile().FindStringSubmatch(line)
	if m == nil {
		return agree()
	}
	if _, err := os.Stat(m[1]); err == nil {
		return disagree(m[1] + " exists")
	}
	return agree()
}

func humanBytes(n uint64) string {
	const gb, mb = 1e9, 1e6
	switch {
	case n >= 10*gb:
		return fmt.Sprintf("%.0f GB", float64(n)/gb)
	case n >= gb:
		return fmt.Sprintf("%.1f GB", float64(n)/gb)
	default:
		return fmt.Sprintf("%.0f MB", float64(n)/mb)
	}
}
