package config

import (
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultRemoteCacheTimeout bounds the remote cache's calls over a whole run: a slow or failing
// server costs at most this, never the verdict.
const DefaultRemoteCacheTimeout = 2 * time.Second

// rawCache is the top-level `cache`: a bool (the default of every gate's own cache), or a
// mapping with `enabled` and a `remote` cache.
type rawCache struct {
	positions
	Enabled *bool           `yaml:"enabled"`
	Remote  *rawRemoteCache `yaml:"remote"`
}

type rawRemoteCache struct {
	positions
	URL        *string   `yaml:"url" format:"httpurl"`
	Write      *bool     `yaml:"write"`
	PublicKeys []string  `yaml:"public_keys" format:"ed25519pub"`
	TokenEnv   *string   `yaml:"token_env" format:"envname"`
	Timeout    *duration `yaml:"timeout"`
}

func (c *rawCache) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		var b bool
		if err := n.Decode(&b); err != nil {
			d.report(n, "%s must be true, false or a mapping, got %s", s, describe(n))
			return false
		}
		c.Enabled = &b
		c.self().set("enabled", fieldPos{key: d.pos(n), value: d.pos(n)})
		return true
	}
	if n.Kind != yaml.MappingNode {
		d.report(n, "%s must be true, false or a mapping with enabled and remote, got %s", s, describe(n))
		return false
	}
	d.decodeStruct(n, reflect.ValueOf(c).Elem(), "cache")
	return true
}

// validateCache runs after the local override is merged: a machine's .gauntlet.local.yml may
// point the main file's remote at a mirror without repeating its keys.
func validateCache(c *rawCache) []Problem {
	if c == nil || c.Remote == nil {
		return nil
	}
	var problems []Problem
	if c.Remote.URL == nil {
		problems = append(problems, c.keyPos("remote").problem(`"remote" in cache needs a url`))
	}
	if len(c.Remote.PublicKeys) == 0 {
		problems = append(problems, c.keyPos("remote").problem(
			`"remote" in cache needs public_keys: the keys its entries are checked with (`+"`gauntlet cache keygen`"+` makes a pair)`))
	}
	return problems
}

// localRemoteCacheProblems are the keys of cache.remote a local override may not set: what is
// stored on the server for every machine to believe, and whose signatures are believed, are the
// project's decisions, and the gated agent can write .gauntlet.local.yml.
func localRemoteCacheProblems(local *rawFile) []Problem {
	if local.Cache == nil || local.Cache.Remote == nil {
		return nil
	}
	r := local.Cache.Remote
	var problems []Problem
	if r.Write != nil && *r.Write {
		problems = append(problems, r.keyPos("write").problem(
			"cache.remote.write: true can only be set in "+FileName+": a local override must not store passes on the server every machine believes"))
	}
	if r.has("public_keys") {
		problems = append(problems, r.keyPos("public_keys").problem(
			"cache.remote.public_keys can only be set in "+FileName+": a local override must not choose whose signatures are believed"))
	}
	return problems
}

// RemoteCache is where passes are shared between machines: read by everyone, written only where
// Write is set and the private key is at hand (CI). Entries are believed when one of PublicKeys
// verifies their signature.
type RemoteCache struct {
	URL        string
	Write      bool
	PublicKeys []string
	TokenEnv   string
	Timeout    time.Duration
}

func resolveRemoteCache(raw *rawCache) *RemoteCache {
	if raw == nil || raw.Remote == nil || raw.Remote.URL == nil {
		return nil
	}
	r := raw.Remote
	return &RemoteCache{
		URL:        *r.URL,
		Write:      valueOr(r.Write, false),
		PublicKeys: r.PublicKeys,
		TokenEnv:   valueOr(r.TokenEnv, ""),
		Timeout:    time.Duration(valueOr(r.Timeout, duration(DefaultRemoteCacheTimeout))),
	}
}

func cacheEnabled(raw *rawCache) bool {
	if raw == nil {
		return false
	}
	return valueOr(raw.Enabled, false)
}
