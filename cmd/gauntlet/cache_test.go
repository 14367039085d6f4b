package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/remotecache"
)

// keygen prints a pair whose halves parse back as one pair, each on its own line beside the
// comment that says where it goes; from a fixed random source, always the same pair.
func TestCacheKeygenPrintsAPair(t *testing.T) {
	ios, out, _ := testStreams("", nil, t.TempDir(), time.Unix(1_800_000_000, 0))
	opts := &keygenOptions{IO: ios, Random: bytes.NewReader(bytes.Repeat([]byte{7}, 64))}
	if err := printKeyPair(opts); err != nil {
		t.Fatal(err)
	}
	var pub, priv string
	for line := range strings.Lines(out.String()) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "ed25519:"):
			pub = line
		case strings.HasPrefix(line, "ed25519-private:"):
			priv = line
		case strings.HasPrefix(line, "#"), line == "":
		default:
			t.Errorf("a line that is neither a key nor a comment: %q", line)
		}
	}
	publicKey, err := remotecache.ParsePublicKey(pub)
	if err != nil {
		t.Fatalf("public key %q: %v\n%s", pub, err, out)
	}
	privateKey, err := remotecache.ParsePrivateKey(priv)
	if err != nil {
		t.Fatalf("private key: %v", err)
	}
	if !publicKey.Equal(privateKey.Public()) {
		t.Fatal("the keys printed are not one pair")
	}
	for _, want := range []string{"cache.remote.public_keys", ".gauntlet.yml", remotecache.SigningKeyEnv, "secret"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
}

func TestCacheKeygenFlags(t *testing.T) {
	if o, code, _ := parsed(t, newCacheKeygenCmd, nil); code != exitOK || o == nil {
		t.Fatalf("keygen: exit %d %+v", code, o)
	}
	refused(t, newCacheKeygenCmd, "unknown command", "x")
}
