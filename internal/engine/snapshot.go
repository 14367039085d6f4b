package engine

import (
	"cmp"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// maxNewOnlyDiffBytes bounds the diff new_only reads to learn which lines the change added.
const maxNewOnlyDiffBytes = snapshot.DefaultPatchBytes

// NewSnapshot prepares the one reading of the repository a run of cfg within scope shares:
// change scoping, the cache keys, new_only and review gates (and the stop hook's fingerprint,
// which reads it first). It reads nothing yet; each part is read when first needed.
func NewSnapshot(cfg *config.Config, scope Scope) *snapshot.Snapshot {
	return snapshot.New(cfg.Root, snapshot.Options{
		Base:       cmp.Or(scope.Base, scope.Pushed, cfg.Base),
		Pinned:     scope.Pinned,
		PatchBytes: patchBytes(cfg),
	})
}

// patchBytes is the most of the patch any gate may read, so that the diff that names the
// changed files reads it in the same git process.
// The integrity checks read the change's lines unless integrity is off altogether.
func patchBytes(cfg *config.Config) int64 {
	var n int64
	if !integrityOff(cfg.Integrity) {
		n = snapshot.DefaultPatchBytes
	}
	for _, g := range cfg.Gates {
		switch {
		case g.NewOnly && isCheck(g):
			n = max(n, maxNewOnlyDiffBytes)
		case g.Kind == gates.KindReview && g.Review != nil:
			m := g.Review.MaxDiffBytes
			if m <= 0 {
				m = gates.DefaultMaxDiffBytes
			}
			n = max(n, m)
		}
	}
	return n
}

// integrityOff says whether the config turns every integrity rule off, in both contexts.
func integrityOff(p gates.IntegrityPolicy) bool {
	for _, r := range gates.IntegrityRules {
		if p.Level(r, true) != gates.IntegrityOff || p.Level(r, false) != gates.IntegrityOff {
			return false
		}
	}
	return true
}
