package engine

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
)

// Who writes to the remote cache: only a run that is no stop hook, whose config says write, and
// that holds the private key of one of the config's public keys. Every other combination reads
// only, and says why when the config asked for writing.
func TestOnlyCIWithTheKeyWritesToTheRemoteCache(t *testing.T) {
	pub, priv, err := remotecache.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, otherPriv, err := remotecache.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimPrefix(priv, "ed25519-private:")
	cases := []struct {
		name     string
		write    bool
		stopHook bool
		key      string // the signing key variable's value; "" unset
		writes   bool
		note     string // "" no note
	}{
		{name: "a reader", key: "", note: ""},
		{name: "a reader that holds the key", key: priv, note: ""},
		{name: "CI", write: true, key: priv, writes: true},
		{name: "CI without its secret", write: true, note: "read only: cache.remote.write is true, but $GAUNTLET_CACHE_SIGNING_KEY, the private key that signs entries, is not set"},
		{name: "the stop hook", write: true, stopHook: true, key: priv, note: "the stop hook never stores passes on the server"},
		{name: "the stop hook without the key", write: true, stopHook: true, note: "the stop hook never stores passes on the server"},
		{name: "another pair's key", write: true, key: otherPriv, note: "read only: $GAUNTLET_CACHE_SIGNING_KEY is not the private key of any public key trusted in this run"},
		{name: "a public key in the variable", write: true, key: pub, note: "read only: $GAUNTLET_CACHE_SIGNING_KEY is a public key"},
		{name: "a mangled key", write: true, key: priv[:30], note: "read only: $GAUNTLET_CACHE_SIGNING_KEY is not standard base64 after \"ed25519-private:\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Config{RemoteCache: &config.RemoteCache{
				URL: "http://127.0.0.1:9/c", Write: tc.write, PublicKeys: []string{pub}, Timeout: time.Second,
			}}
			env := []string{"PATH=/bin"}
			if tc.key != "" {
				env = append(env, remotecache.SigningKeyEnv+"="+tc.key)
			}
			c, note := openRemote(context.Background(), Request{Config: cfg, Env: env, StopHook: tc.stopHook}, nil)
			if c == nil {
				t.Fatalf("no client: %v", note)
			}
			if c.Writes() != tc.writes {
				t.Errorf("Writes() = %v, want %v", c.Writes(), tc.writes)
			}
			switch {
			case tc.note == "" && note != nil:
				t.Errorf("note %q, want none", note)
			case tc.note != "" && (note == nil || !strings.Contains(note.Error(), tc.note)):
				t.Errorf("note %v, want one saying %q", note, tc.note)
			}
			if note != nil && strings.Contains(note.Error(), secret[:12]) {
				t.Errorf("the note shows the private key: %v", note)
			}
		})
	}
}

// A config whose public keys do not parse uses no remote cache, and says so; the loader refuses
// such configs, so this is a config made some other way.
func TestUnreadablePublicKeysUseNoRemoteCache(t *testing.T) {
	cfg := &config.Config{RemoteCache: &config.RemoteCache{URL: "http://127.0.0.1:9/c", PublicKeys: []string{"ed25519:AAAA"}}}
	c, err := openRemote(context.Background(), Request{Config: cfg, Env: []string{}}, nil)
	if c != nil || err == nil || !strings.Contains(err.Error(), "remote cache not used") {
		t.Fatalf("openRemote = %v, %v", c, err)
	}
}

func TestIgnoredEntriesAreSaidOnce(t *testing.T) {
	for ignored, want := range map[remotecache.Ignored]string{
		{}:                       "",
		{Unverified: 1}:          "remote cache: ignored 1 entry whose signature did not hold (forged, edited, or signed by a key cache.remote.public_keys does not list)",
		{Unverified: 2}:          "remote cache: ignored 2 entries whose signature did not hold",
		{HMAC: 1}:                "remote cache: ignored 1 entry signed with the retired shared secret (HMAC); the next run that writes with $GAUNTLET_CACHE_SIGNING_KEY replaces it",
		{Unverified: 1, HMAC: 3}: "remote cache: ignored 1 entry whose signature did not hold (forged, edited, or signed by a key cache.remote.public_keys does not list); 3 entries signed with the retired shared secret (HMAC)",
	} {
		got := ""
		if err := ignoredNote(ignored); err != nil {
			got = err.Error()
		}
		if (want == "") != (got == "") || !strings.HasPrefix(got, want) {
			t.Errorf("ignoredNote(%+v) = %q, want %q", ignored, got, want)
		}
	}
}

// The public keys a base's config lists, read leniently: a base config an older gauntlet wrote,
// or one that no longer loads, still says which keys it trusted.
func TestPublicKeysIn(t *testing.T) {
	for data, want := range map[string]string{
		"version: 1\ncache:\n  remote:\n    url: http://x\n    public_keys: [ed25519:a, ed25519:b]\n": "ed25519:a ed25519:b",
		"version: 1\ncache:\n  remote:\n    public_keys:\n      - ed25519:a\n    key_env: OLD\n":      "ed25519:a",
		"version: 1\ncache: true\n":                                                "",
		"version: 1\ncache:\n  remote:\n    key_env: OLD\n":                        "",
		"version: 1\ncache:\n  remote:\n    public_keys: ed25519:a\n":              "",
		"version: 1\ncache:\n  remote:\n    public_keys: [1, {a: b}, ed25519:c]\n": "ed25519:c",
		": not yaml [": "",
	} {
		if got := strings.Join(publicKeysIn([]byte(data)), " "); got != want {
			t.Errorf("publicKeysIn(%q) = %q, want %q", data, got, want)
		}
	}
}

// Keys the change adds are dropped, in the config's order; the base's own stay.
func TestTrustedAtBase(t *testing.T) {
	kept, dropped := splitByBase([]string{"ed25519:a", "ed25519:new", "ed25519:b"}, []string{"ed25519:b", "ed25519:a", "ed25519:gone"})
	if strings.Join(kept, " ") != "ed25519:a ed25519:b" || strings.Join(dropped, " ") != "ed25519:new" {
		t.Fatalf("kept %q, dropped %q", kept, dropped)
	}
}
