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
// other languages give none. whole says every touched test file was read (none past the bounds,
// none unreadable, none of another language).
func testDigests(ctx context.Context, snap *snapshot.Snapshot, ch *snapshot.Change) (base, now census.Digests, whole bool) {
	readBase, readNow := digestReaders(ctx, snap)
	base, now, whole = census.Digests{}, census.Digests{}, !ch.Cut
	nBase, nNow := 0, 0
	for _, f := range ch.Files {
		if !digestible(f.Path) {
			// A test file whose tests are not read (Python, Rust): its tests have no digest on
			// either side, and are not known to be unchanged.
			whole = whole && !integrity.IsTestFile(f.Path)
			continue
		}
		if f.Status != snapshot.Added {
			nBase++
			whole = nBase <= maxDigestFiles && addDigests(base, f.Path, readBase) && whole
		}
		if f.Status != snapshot.Deleted {
			nNow++
			whole = nNow <= maxDigestFiles && addDigests(now, f.Path, readNow) && whole
		}
	}
	return base, now, whole && ctx.Err() == nil
}

// digestReaders read a test file as the change's base commit holds it, and as the work tree
// does, each boundedly.
func digestReaders(ctx context.Context, snap *snapshot.Snapshot) (atBase, inTree digestReader) {
	from, _, hasBase, err := snap.DiffBase(ctx)
	atBase = func(rel string) ([]byte, bool) {
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
	inTree = func(rel string) ([]byte, bool) {
		data, rerr := safefile.ReadFile(filepath.Join(snap.Root(), filepath.FromSlash(rel)), maxDigestFileBytes, deadline)
		return data, rerr == nil
	}
	return atBase, inTree
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

// addDigests adds the digests of a test file's tests; false when it could not be read.
func addDigests(d census.Digests, rel string, read digestReader) bool {
	data, ok := read(rel)
	if !ok {
		return false
	}
	if path.Ext(rel) == ".go" {
		d.AddGo(rel, data)
	} else {
		d.AddJS(rel, data)
	}
	return true
}
