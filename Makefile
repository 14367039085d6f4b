# Everything here needs only Go. Tools beyond it are fetched through the Go module proxy or
# skipped with a message, so a fresh machine can run every target.
GO      ?= go
BIN     := bin/gauntlet
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.7.0

# The race detector needs cgo; without a C compiler the tests still run, and say so.
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)

.PHONY: all build run test lint bench bench-hook schema clean

all: build

# CGO_ENABLED=0: a static binary, with no dynamic loader to start on every call (pflag pulls in
# net, which links libc otherwise). Only the build: -race tests need cgo.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gauntlet

## run: build gauntlet and run it on this repository's own .gauntlet.yml
run: build
	./$(BIN) run

## test: the whole test suite, with the race detector when cgo is available
test:
ifeq ($(RACE),)
	@echo "make test: no C compiler for cgo, running without -race"
endif
	$(GO) test $(RACE) -count=1 ./...

## lint: gofmt, go vet and staticcheck (fetched through the Go module proxy)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if $(GO) run $(STATICCHECK) -version >/dev/null 2>&1; then \
	  $(GO) run $(STATICCHECK) ./...; \
	else echo "lint: staticcheck could not be fetched, skipped"; fi

## bench: Go benchmarks, then gauntlet against plain-shell baselines
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./bench/run.sh

## bench-hook: the agent loop's costs (stop hook, cache, shared verdicts, start-up) against their floors
bench-hook:
	./bench/hook.sh

## schema: regenerate gauntlet.schema.json, the config's JSON Schema, from the config types
schema:
	$(GO) run ./cmd/gauntlet schema > gauntlet.schema.json.tmp && mv gauntlet.schema.json.tmp gauntlet.schema.json

clean:
	rm -rf bin
