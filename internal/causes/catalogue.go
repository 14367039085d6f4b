package causes

import "sync"

// lit is a pattern that is only literals, any of which a line must contain.
func lit(literals ...string) Pattern { return Pattern{Literals: literals} }

// re is a pattern that is a regexp, tried only on lines containing one of literals.
func re(regexp string, literals ...string) Pattern {
	return Pattern{Literals: literals, Regexp: regexp}
}

// The signatures match what the tools print when they themselves give up, never what a test
// prints: a retry warning that may still end in success, or a connection error a test's own
// client reports, must not excuse a real failure. Each entry has a captured output in
// testdata/<id>*.txt, and the tests run every ordinary failing output in testdata/negative/
// against the whole catalogue. More specific entries come first: the first complete entry names
// the cause.
var catalogue = sync.OnceValue(func() []Signature {
	return []Signature{
		// Registries and networks.
		{
			ID: "cargo-registry-unreachable", Ecosystem: "cargo",
			// curl's error code, on a "Caused by:" line of a fatal cargo error (a retry warning puts
			// it after "spurious network error" instead), or the download that failed.
			Patterns: []Pattern{re("^\\s+\\[(5|6|7|28|35|52|56)\\] (Could not resolve|Couldn't resolve|Could not connect|Couldn't connect|Failed to connect|Timeout was reached|Operation timed out|SSL connect error|Server returned nothing|Failure when receiving data|Recv failure|Send failure|Connection (refused|reset|timed out))|failed to download from `https?://\\S*crates\\.io", "] ", "failed to download from")},
			Summary:  "cargo cannot reach its registry (crates.io)",
			Fix:      "check the network or proxy; without one, fetch or vendor the dependencies beforehand and set CARGO_NET_OFFLINE=true",
			Probe:    ProbeNetwork,
		},
		{
			ID: "cargo-offline-missing-dependency", Ecosystem: "cargo",
			Patterns: []Pattern{lit("you're using offline mode (--offline)")},
			Summary:  "cargo runs offline and a dependency is not in its local cache",
			Fix:      "run `cargo fetch` with network access (or vendor the dependencies), then rerun",
		},
		{
			ID: "go-toolchain-download-failed", Ecosystem: "go",
			Patterns: []Pattern{re(`^go: download go1[\d.]*\S*( for \S+)?: `, "go: download go")},
			Summary:  "go.mod asks for a newer Go and the go command could not download that toolchain",
			Fix:      "install the Go version go.mod names (or let GOTOOLCHAIN=auto download it with network access)",
			Probe:    ProbeVersion,
		},
		{
			ID: "go-proxy-unreachable", Ecosystem: "go",
			// The module proxy's or checksum database's URLs, never a test's own client.
			Patterns: []Pattern{re(`Get "https?://[^"]*/(@v/[^"]*|@latest)": |Get "https?://sum\.golang\.(org|google\.cn)/[^"]*": |dial tcp: lookup (proxy|sum)\.golang\.org|(proxy|sum)\.golang\.org[^"]*": (dial tcp|net/http|read tcp|proxyconnect)`, `Get "http`, ".golang.org")},
			Summary:  "go cannot reach the module proxy to download modules",
			Fix:      "check the network or GOPROXY; without one, run `go mod download` (or `go mod vendor`) beforehand",
			Probe:    ProbeNetwork,
		},
		{
			// govulncheck reads Go's vulnerability database (vuln.go.dev, or GOVULNDB) before it
			// judges anything: without the network it judges nothing.
			ID: "govulncheck-db-unreachable", Ecosystem: "go",
			Patterns: []Pattern{lit("govulncheck: fetching vulnerabilities: ")},
			Summary:  "govulncheck cannot reach the Go vulnerability database",
			Fix:      "check the network (vuln.go.dev) or point GOVULNDB at a local copy of the database",
			Probe:    ProbeNetwork,
		},
		{
			ID: "go-module-lookup-disabled", Ecosystem: "go",
			Patterns: []Pattern{lit("module lookup disabled by GOPROXY=off")},
			Summary:  "go runs with GOPROXY=off and a module is not in the module cache",
			Fix:      "run `go mod download` with network access (or vendor the modules), then rerun",
		},
		{
			ID: "npm-registry-unreachable", Ecosystem: "npm",
			Patterns: []Pattern{re(`^npm (error|ERR!) (code (ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT)$|network request to \S+ failed)`, "npm error", "npm ERR!")},
			Summary:  "npm cannot reach its registry",
			Fix:      "check the network and the registry or proxy in .npmrc; without one, install the dependencies beforehand (npm ci)",
			Probe:    ProbeNetwork,
		},
		{
			ID: "pnpm-registry-unreachable", Ecosystem: "pnpm",
			Patterns: []Pattern{lit("ERR_PNPM_META_FETCH_FAIL")},
			Summary:  "pnpm cannot reach its registry",
			Fix:      "check the network and the registry or proxy in .npmrc; without one, install the dependencies beforehand (pnpm install --offline needs a filled store)",
			Probe:    ProbeNetwork,
		},
		{
			ID: "yarn-registry-unreachable", Ecosystem: "yarn",
			Patterns: []Pattern{re(`^error (Error: getaddrinfo (ENOTFOUND|EAI_AGAIN)|An unexpected error occurred: ".*(ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET))|YN0001: .*RequestError: .*(ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET)`, "error Error: getaddrinfo", "error An unexpected error occurred", "YN0001")},
			Summary:  "yarn cannot reach its registry",
			Fix:      "check the network and the registry or proxy in .yarnrc; without one, install the dependencies beforehand",
			Probe:    ProbeNetwork,
		},
		{
			ID: "node-registry-unreachable", Ecosystem: "node",
			// Any package manager naming the public registry's host in a connection error.
			Patterns: []Pattern{re(`\b(ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET)\b.*registry\.(npmjs\.org|yarnpkg\.com|npmmirror\.com)`, "registry.npmjs.org", "registry.yarnpkg.com", "registry.npmmirror.com")},
			Summary:  "the package manager cannot reach the npm registry",
			Fix:      "check the network and the registry or proxy settings; without one, install the dependencies beforehand",
			Probe:    ProbeNetwork,
		},
		{
			ID: "pip-index-unreachable", Ecosystem: "python",
			// Both pip's own give-up line and a connection failure: "no version" alone is often a typo.
			Patterns: []Pattern{
				re(`^ERROR: (Could not find a version that satisfies the requirement|No matching distribution found for) `, "ERROR: "),
				re(`Retrying \(Retry\(.*\)\) after connection broken by|Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|ConnectTimeoutError|ProxyError`, "Retrying (Retry(", "Failed to establish", "name resolution", "service not known", "ConnectTimeoutError", "ProxyError"),
			},
			Summary: "pip cannot reach the package index",
			Fix:     "check the network and the index URL (PIP_INDEX_URL); without one, install the dependencies beforehand or from a wheelhouse",
			Probe:   ProbeNetwork,
		},
		{
			ID: "uv-index-unreachable", Ecosystem: "python",
			Patterns: []Pattern{
				re(`^\s*(error|×): Failed to (fetch|download)`, "Failed to fetch", "Failed to download"),
				re(`^\s*Caused by: (dns error|client error \(Connect\)|tcp connect error|operation timed out|error sending request for url)`, "Caused by: "),
			},
			Summary: "uv cannot reach the package index",
			Fix:     "check the network and the index URL (UV_INDEX_URL); without one, `uv sync` beforehand and run with --offline",
			Probe:   ProbeNetwork,
		},
		{
			ID: "docker-daemon-unreachable", Ecosystem: "docker",
			Patterns: []Pattern{lit("Cannot connect to the Docker daemon at ")},
			Summary:  "the Docker daemon is not running or not reachable",
			Fix:      "start Docker (or point DOCKER_HOST at a running daemon), then rerun",
			Probe:    ProbeDocker,
		},

		// Toolchains too old or missing.
		{
			ID: "go-toolchain-too-old", Ecosystem: "go",
			// Go 1.21 and later name both versions; older ones cannot parse a newer go.mod at all.
			Patterns: []Pattern{re(`requires go >= \S+ \(running go \S+|go\.mod:\d+: (invalid go version '[^']+': must match format|unknown directive: toolchain)`, "requires go >= ", "invalid go version", "unknown directive: toolchain")},
			Summary:  "the installed Go is older than go.mod requires",
			Fix:      "install the Go version go.mod names, or allow GOTOOLCHAIN=auto to download it",
			Probe:    ProbeVersion,
		},
		{
			ID: "rust-toolchain-too-old", Ecosystem: "cargo",
			Patterns: []Pattern{re("^error: (rustc \\S+ is not supported by the following packages?:|package `[^`]+` cannot be built because it requires rustc \\S+ or newer)|but that feature is not stabilized in this version of Cargo", "error: rustc ", "error: package `", "not stabilized in this version of Cargo")},
			Summary:  "the installed Rust toolchain is older than the project requires",
			Fix:      "update Rust (rustup update) or install the version the project pins (rust-version, rust-toolchain.toml)",
			Probe:    ProbeVersion,
		},
		{
			ID: "python-version-unsupported", Ecosystem: "python",
			Patterns: []Pattern{re(`requires a different Python: \S+ not in |which is incompatible with the project's Python requirement`, "requires a different Python: ", "incompatible with the project's Python requirement")},
			Summary:  "the installed Python does not satisfy the project's requires-python",
			Fix:      "install a Python version that requires-python accepts (pyenv, uv python install) and rerun with it",
			Probe:    ProbeVersion,
		},
		{
			ID: "node-engine-unsupported", Ecosystem: "node",
			Patterns: []Pattern{re(`ERR_PNPM_UNSUPPORTED_ENGINE|^npm (error|ERR!) code EBADENGINE$|^error \S+: The engine "node" is incompatible with this module`, "ERR_PNPM_UNSUPPORTED_ENGINE", "EBADENGINE", `The engine "node" is incompatible`)},
			Summary:  "the installed Node.js does not satisfy the project's engines field",
			Fix:      "install the Node.js version package.json's engines asks for (nvm, fnm, volta) and rerun",
			Probe:    ProbeVersion,
		},

		{
			ID: "golangci-lint-go-too-old", Ecosystem: "go",
			// golangci-lint refuses to load a module whose go directive is newer than the Go it was
			// built with, whatever Go is installed: the binary is what is too old.
			Patterns: []Pattern{re(`the Go language version \(go\S+\) used to build golangci-lint is lower than the targeted Go version \(\S+\)`, "used to build golangci-lint is lower than")},
			Summary:  "golangci-lint was built with an older Go than the module's go directive targets",
			Fix:      "rebuild golangci-lint with the Go go.mod names (GOTOOLCHAIN=go1.N.0 go install …/golangci-lint@latest), or install a release binary built with it",
			Probe:    ProbeVersion,
			explain:  explainGolangciGo,
		},
		{
			ID: "pytest-too-old", Ecosystem: "python",
			// pytest's usage error (exit 4, which tox, nox or make may pass on as another code) for a
			// minversion above the installed one.
			Patterns: []Pattern{re(`'minversion' requires pytest-\S+, actual pytest-`, "'minversion' requires pytest-")},
			Summary:  "the installed pytest is older than the project's minversion",
			Fix:      "install the pytest version the project asks for in its environment (pip install -U pytest, or sync the dev dependencies), then rerun",
			Probe:    ProbeVersion,
		},
		{
			ID: "pytest-plugin-missing", Ecosystem: "python",
			// pytest's usage error (exit 4) for an option of a well-known plugin (pytest-xdist's
			// -n/--numprocesses, pytest-cov's --cov, pytest-timeout's, pytest-rerunfailures'):
			// the plugin is not installed where the gate's pytest runs. An option of the project's
			// own conftest that pytest does not know is the code's, and not matched.
			Patterns: []Pattern{re(`^(pytest|py\.test|__main__\.py): error: unrecognized arguments: (.* )?(-n|--numprocesses|--maxprocesses|--dist|--cov|--cov=\S*|--cov-\S+|--no-cov|--timeout(=\S*)?|--reruns(=\S*)?|--benchmark-\S+|-p xdist)( |$)`,
				"error: unrecognized arguments: ")},
			Summary: "the gate's pytest lacks a plugin the options need (pytest-xdist, pytest-cov, ...): the project's test dependencies are not installed where it runs",
			Fix:     "install the project's test dependencies into the Python the gate runs (its dev extra, or the tox env's deps), then rerun",
		},
		{
			ID: "pre-commit-too-old", Ecosystem: "python",
			Patterns: []Pattern{re(`pre-commit version \S+ is required but version \S+ is installed`, "is required but version")},
			Summary:  "the installed pre-commit is older than the config's minimum_pre_commit_version",
			Fix:      "upgrade pre-commit (pipx upgrade pre-commit, or pip install -U pre-commit), then rerun",
			Probe:    ProbeVersion,
		},
		{
			ID: "pnpm-version-switch-refused", Ecosystem: "pnpm",
			// pnpm switching to the version package.json's packageManager pins, and refusing the
			// download it cannot verify: no script ran.
			Patterns: []Pattern{re(`Refusing to run pnpm@\S+: its npm registry signature could not be verified|ERR_PNPM_PNPM_ENGINE_IDENTITY_UNVERIFIABLE`, "Refusing to run pnpm@", "ERR_PNPM_PNPM_ENGINE_IDENTITY_UNVERIFIABLE")},
			Summary:  "pnpm refuses to switch to the version packageManager pins: its npm registry signature could not be verified",
			Fix:      "add manage-package-manager-versions=false to .npmrc (pnpm then runs as installed), or install the pinned pnpm version, then rerun",
		},

		// Dependencies not installed.
		{
			ID: "npx-install-prompt", Ecosystem: "node",
			Patterns: []Pattern{lit("Need to install the following packages:", "npx canceled due to missing packages")},
			Summary:  "npx wanted to download a package because the project's own is not installed",
			Fix:      "install the project's dependencies (npm ci) so npx finds the local binary; `npx --no-install` fails fast instead of prompting",
			Probe:    ProbeNodeModules,
		},
		{
			ID: "node-modules-missing", Ecosystem: "node",
			// A JavaScript tool the shell cannot find, pnpm's own diagnosis, or a module missing from
			// node_modules itself; never an import of the project's own files.
			Patterns: []Pattern{re(`^(/bin/)?sh: \d+: (vitest|jest|eslint|tsc|prettier|mocha|ava|playwright|cypress|vite|next|nuxt|webpack|rollup|tsx|ts-node|nx|turbo|biome|oxlint|rimraf|cross-env|nodemon|karma|svelte-kit|svelte-check|astro|lerna|stylelint|vue-tsc|tsup|esbuild|c8|nyc|concurrently|run-s|run-p|npm-run-all|lint-staged|knip|tap|uvu|xo|standard|ng|react-scripts|storybook|wrangler|prisma|docusaurus|vuepress|gatsby|parcel|babel|electron-builder): not found$|ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\W+Command "[^"]+" not found|Local package\.json exists, but node_modules missing|Cannot find module '[^']*[/\\]node_modules[/\\][^']*'|^error Command "[^"]+" not found\.$`, ": not found", "ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL", "node_modules missing", "node_modules", `error Command "`)},
			Summary:  "the project's node_modules are not installed",
			Fix:      "install the dependencies (npm ci, pnpm install or yarn install), then rerun",
			Probe:    ProbeNodeModules,
			explain:  explainNodeModules,
		},
		{
			ID: "python-env-missing", Ecosystem: "python",
			// The interpreter's own "-m" message (no quotes, unlike an import error in a test) or the
			// shell not finding a virtualenv's binary.
			Patterns: []Pattern{re(`^\S*python[\d.]*: No module named (pytest|mypy|ruff|black|flake8|pylint|isort|coverage|tox|nox|pyright|bandit|pip|ansiblelint|yamllint|codespell)$|^(\S*/)?sh: \d+: \S*/\.?venv/bin/\S+: not found$`, ": No module named ", ": not found")},
			Summary:  "the Python environment lacks a tool the gate runs (a virtualenv not created, not active or not synced)",
			Fix:      "install the tool into the Python the gate runs; in a project with a virtualenv, create it with the dev dependencies (uv sync, poetry install, …) and activate it",
			Probe:    ProbeCommand,
			explain:  explainPythonEnv,
		},

		{
			ID: "tool-missing", Ecosystem: "system",
			// The words of the shell, make or env for a tool it cannot find, for the tools preflight
			// knows how to get (its table is the one list); other commands not found (a project's own
			// scripts) stay the exit code's business (127: command not found).
			Patterns: []Pattern{re(toolNotFound(), ": not found", ": command not found", ": Command not found", ": No such file or directory")},
			Summary:  "a tool the gate runs is not installed or not on PATH",
			Fix:      "install it (the line names it; gauntlet doctor gives the command) or put it on the PATH gauntlet's gates get, then rerun",
			Probe:    ProbeCommand,
			explain:  explainMissingTool,
		},

		// Browsers and app servers for end-to-end tests.
		{
			ID: "playwright-browsers-missing", Ecosystem: "playwright",
			Patterns: []Pattern{re(`Executable doesn't exist at \S*ms-playwright`, "Executable doesn't exist at ")},
			Summary:  "Playwright's browsers are not installed",
			Fix:      "run npx playwright install (add --with-deps on a fresh Linux machine)",
			Probe:    ProbePath,
		},
		{
			ID: "playwright-host-deps-missing", Ecosystem: "playwright",
			Patterns: []Pattern{lit("Host system is missing dependencies to run browsers")},
			Summary:  "the system libraries Playwright's browsers need are not installed",
			Fix:      "run npx playwright install-deps (as root), then rerun",
		},
		{
			ID: "cypress-binary-missing", Ecosystem: "cypress",
			Patterns: []Pattern{re(`The cypress npm package is installed, but the Cypress binary is missing|^No version of Cypress is installed in: |^Cypress executable not found at: `, "Cypress binary is missing", "No version of Cypress is installed", "Cypress executable not found")},
			Summary:  "the Cypress binary is not installed",
			Fix:      "run npx cypress install, then rerun",
			Probe:    ProbePath,
		},
		{
			ID: "cypress-server-not-running", Ecosystem: "cypress",
			Patterns: []Pattern{lit("Cypress could not verify that this server is running", "Cypress failed to verify that your server is running")},
			Summary:  "the app server Cypress tests against (baseUrl) is not running",
			Fix:      "start the server before the tests (for example with start-server-and-test) or fix baseUrl, then rerun",
		},

		// Machine resources.
		{
			ID: "file-watchers-exhausted", Ecosystem: "system",
			Patterns: []Pattern{lit("System limit for number of file watchers reached")},
			Summary:  "the system's limit on file watchers is reached",
			Fix:      "raise fs.inotify.max_user_watches, or run the tool without watch mode",
		},
		{
			ID: "disk-full", Ecosystem: "system",
			// The system's message, or npm naming the code; a bare ENOSPC may be a test's own subject.
			Patterns: []Pattern{re(`(?i)no space left on device|^npm (error|ERR!) code ENOSPC$`, "o space left on device", "O SPACE LEFT ON DEVICE", "code ENOSPC")},
			Summary:  "the disk is full",
			Fix:      "free disk space (build caches, old logs, container images), then rerun",
			Probe:    ProbeDisk,
		},
		{
			ID: "golangci-lint-timeout", Ecosystem: "go",
			// golangci-lint's own deadline (run.timeout, --timeout), not the gate's: on a loaded
			// machine the same analysis takes longer.
			Patterns: []Pattern{lit("Timeout exceeded: try increasing it by passing --timeout option")},
			Summary:  "golangci-lint stopped at its own --timeout before the analysis finished",
			Fix:      "raise golangci-lint's timeout (--timeout=10m, or run.timeout in its config) and the gate's timeout with it: on a loaded machine the analysis takes longer",
		},
		{
			ID: "node-heap-out-of-memory", Ecosystem: "node",
			// V8's own report of reaching its heap limit (--max-old-space-size, by default a fraction of
			// the machine's memory), on the main thread (whatever V8 was doing: "Reached heap limit",
			// "Ineffective mark-compacts near heap limit") or in a worker thread, which inherits the
			// limit (a test runner's pool): a limit of the process, which free memory on the machine
			// does not lift, so no memory probe.
			Patterns: []Pattern{re(`FATAL ERROR: .*Allocation failed - JavaScript heap out of memory|Worker terminated due to reaching memory limit: JS heap out of memory`, "JavaScript heap out of memory", "JS heap out of memory")},
			Summary:  "Node.js reached V8's heap limit (the process's --max-old-space-size, not the machine's memory)",
			Fix:      "raise the heap limit in the gate's env (NODE_OPTIONS=--max-old-space-size=4096) or run fewer workers in parallel",
		},
		{
			ID: "go-out-of-memory", Ecosystem: "go",
			Patterns: []Pattern{re(`^fatal error: (runtime: )?out of memory`, "fatal error: ")},
			Summary:  "a Go program ran out of memory",
			Fix:      "free memory on the machine or run fewer jobs in parallel (jobs:, go test -p), then rerun",
			Probe:    ProbeMemory,
		},
		{
			ID: "oom-killed", Ecosystem: "system",
			// The shell's report of a child killed by SIGKILL, which with exit code 137 is nearly
			// always the kernel's out-of-memory killer.
			Patterns:  []Pattern{re(`^Killed$|^\S*sh: (line )?\d+: .*\bKilled\b`, "Killed")},
			ExitCodes: []int{137},
			Summary:   "a process was killed by the system, most likely for running out of memory",
			Fix:       "free memory on the machine or run fewer jobs in parallel, then rerun",
			Probe:     ProbeMemory,
		},
		{
			ID: "oom-killed-child", Ecosystem: "system",
			// go test and cargo name the signal that killed the test binary on a line of its own.
			Patterns: []Pattern{re(`^signal: killed$|process didn't exit successfully: .*\(signal: 9, SIGKILL: kill\)$`, "signal: killed", "SIGKILL: kill")},
			Summary:  "a test binary was killed by the system, most likely for running out of memory",
			Fix:      "free memory on the machine or run fewer jobs in parallel (jobs:, go test -p, cargo test -j), then rerun",
			Probe:    ProbeMemory,
		},
	}
})
