package engine

import (
	"context"
	"path"
	"path/filepath"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/census"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

const (
	// maxDigestFiles bounds the test files read on each side for the digests of their tests.
	maxDigestFiles = 200
	// maxDigestFileBytes bounds one test file read for its digests; a longer one gives none.
	maxDigestFileBytes = 1 << 20
	// digestReadTime bounds the reads of the work tree's test files, when the run has no deadline.
	digestReadTime = 10 * time.Second
)

// digestReader reads one side's source of a test file; false when it cannot be read.
type digestReader func(rel string) ([]byte, bool)

// testDigests are the digests of the tests' bodies in the test files the change touched: at the
// base (from its commit) for the files it deleted or edited, now (from the work tree) for the
// files it added or edited, so that the census follows a test renamed or moved with its body.
// Go test functions and their table cases, and JavaScript and TypeScript it/test calls, are read;
// other languages give none. A file that cannot be read gives none.
func testDigests(ctx context.Context, snap *snapshot.Snapshot, ch *snapshot.Change) (base, now census.Digests) {
	from, _, hasBase, err := snap.DiffBase(ctx)
	readBase := func(rel string) ([]byte, bool) {
		if err != nil || !hasBase {
			return nil, false
		}
		data, found, ferr := snap.FileAt(ctx, from, rel, maxDigestFileBytes)
		return data, found && ferr == nil
	}
	deadline := time.Now().Add(digestReadTime)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	readNow := func(rel string) ([]byte, bool) {
		data, rerr := safefile.ReadFile(filepath.Join(snap.Root(), filepath.FromSlash(rel)), maxDigestFileBytes, deadline)
		return data, rerr == nil
	}
	base, now = census.Digests{}, census.Digests{}
	nBase, nNow := 0, 0
	for _, f := range ch.Files {
		if !digestible(f.Path) || ctx.Err() != nil {
			continue
		}
		if f.Status != snapshot.Added && nBase < maxDigestFiles {
			nBase++
			addDigests(base, f.Path, readBase)
		}
		if f.Status != snapshot.Deleted && nNow < maxDigestFiles {
			nNow++
			addDigests(now, f.Path, readNow)
		}
	}
	return base, now
}

// digestible says whether a file is a test file whose tests' digests can be read.
func digestible(p string) bool {
	if !integrity.IsTestFile(p) {
		return false
	}
	switch path.Ext(p) {
	case ".go", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx":
		return true
	}
	return false
}

func addDigests(d census.Digests, rel string, read digestReader) {
	data, ok := read(rel)
	if !ok {
		return
	}
	if path.Ext(rel) == ".go" {
		d.AddGo(rel, data)
	} else {
		d.AddJS(rel, data)
	}
}
