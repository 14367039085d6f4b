# Everything here needs only Go. Tools beyond it are fetched through the Go module proxy or
# skipped with a message, so a fresh machine can run every target.
GO      ?= go
BIN     := bin/gauntlet
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0
GORELEASER  := github.com/goreleaser/goreleaser/v2@v2.14.0
SYFT_VERSION := 1.57.0
SYFT        := github.com/anchore/syft/cmd/syft@v$(SYFT_VERSION)
ACTIONLINT  := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

# go test's default of 10 minutes per package is too short for the end-to-end suite under -race on
# a loaded 2-core machine (it took 9 minutes at a load of 30): testscript then fails every script
# still running with "test timed out".
TEST_TIMEOUT ?= 45m

# The end-to-end scripts spend most of their time waiting on the processes they start (gauntlet,
# fakegate, git, sh), not on a CPU: go test's default of one script per core leaves a 2-core
# machine idle between them.
TEST_PARALLEL ?= 8

# The race detector needs cgo; without a C compiler the tests still run, and say so.
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)

.PHONY: all build run test browser unit cross lint complexity bench bench-all bench-hook bench-fixed bench-preedit bench-census bench-proportional schema fuzz release-check clean hosts-e2e

all: build

# CGO_ENABLED=0: a static binary, with no dynamic loader to start on every call (pflag pulls in
# net, which links libc otherwise). Only the build: -race tests need cgo.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gauntlet

## run: build gauntlet and run this repository's quick gates (a few minutes); the race suite is the
## gate `race`: `./bin/gauntlet run --all` runs every gate
QUICK_GATES := gofmt vet mod-tidy build test
run: build
	./$(BIN) run $(QUICK_GATES)

## test: the whole test suite, with the race detector when cgo is available, then the cross check
test: browser unit cross

## browser: a Chromium for the HTML reports' browser test (cmd/gauntlet's html_browser script).
## Debian's chromium is installed with apt-get when none is on PATH and we are root; otherwise
## that test skips, saying so. Never fails: a machine without a browser still runs the rest.
BROWSERS := chromium chromium-browser google-chrome
browser:
	@found=; for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && { found=$$(command -v $$b); break; }; done; \
	if [ -n "$$found" ]; then echo "browser: $$found renders the HTML reports in their browser test"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "browser: installing Debian's chromium for the HTML reports' browser test"; \
	  { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq chromium; } >/dev/null 2>&1 \
	    && echo "browser: chromium installed" \
	    || echo "browser: chromium could not be installed; the HTML reports' browser test will skip"; \
	else echo "browser: no chromium and no apt-get as root; the HTML reports' browser test will skip"; fi

unit:
ifeq ($(RACE),)
	@echo "make test: no C compiler for cgo, running without -race"
endif
	$(GO) test $(RACE) -count=1 -parallel $(TEST_PARALLEL) -timeout $(TEST_TIMEOUT) ./...

## cross: what can be proved about the other platforms without running on them: the release
## binary built for each, `go vet` for windows and darwin, and every package's test binary
## compiled and linked for windows (-exec true: built, not run). Needs only the Go toolchain.
CROSS_BUILDS := windows/amd64 windows/arm64 darwin/amd64 darwin/arm64
CROSS_VET    := windows/amd64 darwin/arm64
CROSS_TESTS  := windows/amd64
cross:
	@set -e; for p in $(CROSS_BUILDS); do \
	  echo "cross: build $$p"; \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/gauntlet; \
	done; \
	for p in $(CROSS_VET); do \
	  echo "cross: vet $$p"; \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./...; \
	done; \
	for p in $(CROSS_TESTS); do \
	  echo "cross: test binaries $$p"; \
	  out=$$(CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) test -count=1 -exec true ./... 2>&1) || { echo "$$out"; exit 1; }; \
	done

## hosts-e2e: the real host CLIs (pinned in internal/hostse2e/versions.txt, installed from npm into
## a temporary prefix) against gauntlet's stop hook and doctor, with a fake model on 127.0.0.1;
## skipped, saying so, when npm or its registry cannot be reached. Not part of make test (minutes);
## HOSTS_E2E_RUN=PATTERN runs only the tests it matches (go test -run)
hosts-e2e:
	./internal/hostse2e/run.sh $(if $(HOSTS_E2E_RUN),-run '$(HOSTS_E2E_RUN)')

## lint: gofmt, go vet, staticcheck, and actionlint on the example workflows (both fetched
## through the Go module proxy, or skipped with a message)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if $(GO) run $(STATICCHECK) -version >/dev/null 2>&1; then \
	  $(GO) run $(STATICCHECK) ./...; \
	else echo "lint: staticcheck could not be fetched, skipped"; fi
	@if GOBIN=$(CURDIR)/bin/tools $(GO) install $(ACTIONLINT) >/dev/null 2>&1; then \
	  bin/tools/actionlint docs/ci/*.yml && echo "lint: actionlint: the example workflows are valid"; \
	else echo "lint: actionlint ($(ACTIONLINT)) could not be fetched, skipped"; fi

## complexity: the three complexity figures of the non-test code (average cyclomatic, functions above
## 15 per 1,000 lines, worst cognitive) and the worst functions; gocyclo and gocognit are fetched
## through the Go module proxy, or skipped with a message
complexity:
	./bench/complexity.sh

## bench: the Go micro-benchmarks
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-all: every performance figure in one run (QUICK=1 for a short smoke run)
bench-all:
	./bench/all.sh

## bench-hook: the agent loop's costs (stop hook, cache, shared verdicts, start-up) against their floors
bench-hook:
	./bench/hook.sh

## bench-preedit: the edit guard's latency per call (median and p99) on 5,000 files
bench-preedit:
	bench/preedit.sh

## bench-fixed: gauntlet's fixed costs (cached stop hook, 8 trivial gates, 500 MB of output) against their floors
bench-fixed:
	./bench/fixed.sh

## bench-census: a stop whose go test gate is counted and compared with the base's census, against the same stop uncounted
bench-census:
	./bench/census.sh

## bench-proportional: a gate given the change's files ({files}) against the whole project, on TanStack/query and golang/tools (cloned; tools from npm)
bench-proportional:
	./bench/proportional.sh

## schema: regenerate gauntlet.schema.json, the config's JSON Schema, from the config types
schema:
	$(GO) run ./cmd/gauntlet schema > gauntlet.schema.json.tmp && mv gauntlet.schema.json.tmp gauntlet.schema.json

## release-check: validate .goreleaser.yaml and build a snapshot of every channel into dist/:
## the archives (zip for windows), checksums, deb and rpm, the Homebrew cask, an SBOM per archive
## (syft, built through the Go module proxy with its version stamped in, which the SBOMs name as
## their creator), the container image (only where a Docker engine
## runs; its config is checked either way) and the npm tarballs (with npm). goreleaser is fetched
## and built through the Go module proxy; whatever cannot be had is skipped with a message.
release-check:
	@if ! $(GO) run $(GORELEASER) --version >/dev/null 2>&1; then \
	  echo "release-check: goreleaser ($(GORELEASER)) could not be fetched or built, skipped"; exit 0; fi; \
	set -e; skip=publish; \
	if ! docker info >/dev/null 2>&1; then \
	  echo "release-check: no Docker engine: the image's config is checked, the image is not built"; skip=$$skip,docker; fi; \
	if GOBIN=$(CURDIR)/bin/tools $(GO) install -ldflags '-X main.version=$(SYFT_VERSION)' $(SYFT) >/dev/null 2>&1; then PATH=$(CURDIR)/bin/tools:$$PATH; export PATH; \
	else echo "release-check: syft ($(SYFT)) could not be fetched or built: no SBOMs"; skip=$$skip,sbom; fi; \
	$(GO) run $(GORELEASER) check; \
	$(GO) run $(GORELEASER) release --snapshot --clean --skip=$$skip; \
	if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  node packaging/npm/assemble.mjs --dist dist; \
	  $(GO) test -count=1 -run 'Snapshot' ./internal/release/...; \
	else echo "release-check: no node and npm: the npm packages are not assembled"; fi

## fuzz: run every fuzz target for FUZZTIME each; a failure leaves its input in testdata/fuzz,
## where plain `go test` (and so `make test`) replays it from then on
FUZZTIME ?= 30s
# Time to shrink each new input; short, so that the time goes to finding new ones.
FUZZMINIMIZETIME ?= 5s
FUZZ_TARGETS := \
	FuzzLoadWithLocal:./config \
	FuzzReadPayload:./internal/stophook \
	FuzzBlockReason:./internal/stophook \
	FuzzParse:./internal/todos \
	FuzzRedact:./internal/redact \
	FuzzClean:./internal/termtext \
	FuzzStrip:./internal/termtext \
	FuzzParseIndexFile:./internal/snapshot
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "fuzz: $${t%%:*} in $${t#*:} for $(FUZZTIME)"; \
	  $(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) "$${t#*:}"; \
	done

clean:
	rm -rf bin dist
