package remotecache

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// SigningKeyEnv is the variable that holds the private key where passes are written (CI). It is
// fixed rather than configurable: the config is in the work tree, and must not be able to point
// the key at another variable. Its name makes it a secret that redaction hides.
const SigningKeyEnv = "GAUNTLET_CACHE_SIGNING_KEY"

// The texts of keys: a prefix that says which half of the pair it is, then standard base64 of
// the Ed25519 public key or of the private key's 32-byte seed. The prefixes keep the halves from
// being mistaken for each other (a private key pasted into the config is refused, not published
// quietly).
const (
	publicPrefix  = "ed25519:"
	privatePrefix = "ed25519-private:"
)

// GenerateKey makes a key pair from random and returns the texts of its public key (for the
// config) and private key (for CI's secret).
func GenerateKey(random io.Reader) (public, private string, err error) {
	pub, priv, err := ed25519.GenerateKey(random)
	if err != nil {
		return "", "", fmt.Errorf("generate a signing key: %w", err)
	}
	return FormatPublicKey(pub), privatePrefix + base64.StdEncoding.EncodeToString(priv.Seed()), nil
}

// FormatPublicKey is the text of a public key, as the config lists it.
func FormatPublicKey(pub ed25519.PublicKey) string {
	return publicPrefix + base64.StdEncoding.EncodeToString(pub)
}

// ParsePublicKey reads a public key as FormatPublicKey writes it.
func ParsePublicKey(text string) (ed25519.PublicKey, error) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, privatePrefix) {
		return nil, errors.New("is a private key: it belongs in CI's secrets, never in the config; make a new pair with `gauntlet cache keygen`, since this one was shown")
	}
	raw, err := decodeKey(text, publicPrefix, ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(raw), nil
}

// ParsePrivateKey reads a private key as GenerateKey writes it. Its errors never repeat the text:
// it is a secret, and they are printed.
func ParsePrivateKey(text string) (ed25519.PrivateKey, error) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, publicPrefix) {
		return nil, errors.New("is a public key: the private key of the pair is the one `gauntlet cache keygen` printed second")
	}
	seed, err := decodeKey(text, privatePrefix, ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// decodeKey checks the prefix and the length of a key's text and returns its bytes; its errors
// do not quote the text.
func decodeKey(text, prefix string, size int) ([]byte, error) {
	encoded, ok := strings.CutPrefix(text, prefix)
	if !ok {
		return nil, fmt.Errorf("must be %q and the key in base64, as `gauntlet cache keygen` prints it", prefix)
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(encoded)
	if err != nil {
		return nil, fmt.Errorf("is not standard base64 after %q", prefix)
	}
	if len(raw) != size {
		return nil, fmt.Errorf("holds %d bytes after %q, not the %d bytes of an Ed25519 key", len(raw), prefix, size)
	}
	return raw, nil
}

// WithoutSigningKey is env without the private key, for the programs gauntlet starts: gates run
// the change's code, and a test that read the key could sign a pass for any state. The caller's
// slice is left as it was.
func WithoutSigningKey(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, SigningKeyEnv+"=")
	})
}
