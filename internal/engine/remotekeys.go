package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// maxBaseConfigBytes bounds the read of the config at the base: a config is a few kilobytes.
const maxBaseConfigBytes = 1 << 20

// trustedKeys are the public keys this run checks remote entries with: the config's, less those
// the change adds. A key is the change's own word until it is merged: otherwise an agent could
// list a key of its own in .gauntlet.yml and sign the passes its branch is then answered from, in
// CI too. In git without a base to measure the change from, no key can be checked, so none is
// trusted (a pull request's shallow checkout says so, rather than believing the branch's keys);
// outside git there is no change, and the config's keys stand. The note names the keys set
// aside; an error means no key is left to trust.
func trustedKeys(ctx context.Context, cfg *config.Config, snap *snapshot.Snapshot) (keys []string, note, err error) {
	keys = cfg.RemoteCache.PublicKeys
	if snap == nil {
		return keys, nil, nil
	}
	base, berr := snap.Base(ctx)
	switch {
	case errors.Is(berr, snapshot.ErrNotGit):
		return keys, nil, nil
	case berr != nil:
		return nil, nil, fmt.Errorf("remote cache not used: the base of the change, whose config says which keys are trusted: %w", berr)
	case base.MergeBase == "":
		return nil, nil, fmt.Errorf("remote cache not used: no base of the change to check cache.remote.public_keys against (%s); set base in %s or pass --base", base.WhyNone, config.FileName)
	}
	atBase := publicKeysIn(configAt(ctx, cfg, base.MergeBase))
	kept, dropped := splitByBase(keys, atBase)
	at := short(base.MergeBase)
	if len(kept) == 0 {
		return nil, nil, fmt.Errorf("remote cache not used: none of cache.remote.public_keys is listed by the config at the base of the change (%s): a key is trusted once the change that adds it is merged", at)
	}
	if len(dropped) > 0 {
		note = fmt.Errorf("remote cache: not trusted in this run: %s, which the change adds to cache.remote.public_keys (the config at the base of the change, %s, does not list it)", strings.Join(dropped, ", "), at)
	}
	return kept, note, nil
}

// configAt is the config file as committed at commit, nil when it is not there (or git fails:
// then no key is trusted, which only means the remote cache is not used).
func configAt(ctx context.Context, cfg *config.Config, commit string) []byte {
	rel, err := filepath.Rel(cfg.Root, cfg.Path)
	if err != nil || cfg.Path == "" {
		return nil
	}
	// "./" makes the path relative to the project root rather than to the top of the repository.
	data, err := git.Output(ctx, cfg.Root, maxBaseConfigBytes, "show", commit+":./"+filepath.ToSlash(rel))
	if err != nil {
		return nil
	}
	return data
}

// publicKeysIn reads cache.remote.public_keys from a config's bytes, leniently: the base's config
// may be one this gauntlet no longer loads (an older one's key_env), and still says which keys
// were trusted. Items that are not strings are left out.
func publicKeysIn(data []byte) []string {
	var doc struct {
		Cache struct {
			Remote struct {
				PublicKeys []any `yaml:"public_keys"`
			} `yaml:"remote"`
		} `yaml:"cache"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var keys []string
	for _, k := range doc.Cache.Remote.PublicKeys {
		if s, ok := k.(string); ok {
			keys = append(keys, s)
		}
	}
	return keys
}

// splitByBase keeps the keys the base lists too, in the config's order, and names the others.
func splitByBase(keys, atBase []string) (kept, dropped []string) {
	for _, k := range keys {
		if slices.Contains(atBase, k) {
			kept = append(kept, k)
		} else {
			dropped = append(dropped, k)
		}
	}
	return kept, dropped
}
