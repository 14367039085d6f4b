package config

import (
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultRemoteCacheTimeout bounds the remote cache's calls over a whole run: a slow or failing
// server costs at most this, never the verdict.
const DefaultRemoteCacheTimeout = 2 * time.Second

// DefaultRemoteCacheKeyEnv names the variable holding the secret that authenticates remote entries.
const DefaultRemoteCacheKeyEnv = "GAUNTLET_CACHE_KEY"

// rawCache is the top-level `cache`: a bool (the default of every gate's own cache), or a
// mapping with `enabled` and a `remote` cache.
type rawCache struct {
	positions
	Enabled *bool           `yaml:"enabled"`
	Remote  *rawRemoteCache `yaml:"remote"`
}

type rawRemoteCache struct {
	positions
	URL      *string   `yaml:"url" format:"httpurl"`
	Write    *bool     `yaml:"write"`
	KeyEnv   *string   `yaml:"key_env" format:"envname"`
	TokenEnv *string   `yaml:"token_env" format:"envname"`
	Timeout  *duration `yaml:"timeout"`
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

// validateCache runs after the local override is merged: CI's .gauntlet.local.yml may add
// `write: true` to the main file's remote, without repeating its url.
func validateCache(c *rawCache) []Problem {
	if c == nil || c.Remote == nil || c.Remote.URL != nil {
		return nil
	}
	return []Problem{c.keyPos("remote").problem(`"remote" in cache needs a url`)}
}

// RemoteCache is where passes are shared between machines: read by everyone, written only where
// Write is set (CI). Entries are authenticated with the secret in the KeyEnv variable.
type RemoteCache struct {
	URL      string
	Write    bool
	KeyEnv   string
	TokenEnv string
	Timeout  time.Duration
}

func resolveRemoteCache(raw *rawCache) *RemoteCache {
	if raw == nil || raw.Remote == nil || raw.Remote.URL == nil {
		return nil
	}
	r := raw.Remote
	return &RemoteCache{
		URL:      *r.URL,
		Write:    valueOr(r.Write, false),
		KeyEnv:   valueOr(r.KeyEnv, DefaultRemoteCacheKeyEnv),
		TokenEnv: valueOr(r.TokenEnv, ""),
		Timeout:  time.Duration(valueOr(r.Timeout, duration(DefaultRemoteCacheTimeout))),
	}
}

func cacheEnabled(raw *rawCache) bool {
	if raw == nil {
		return false
	}
	return valueOr(raw.Enabled, false)
}
