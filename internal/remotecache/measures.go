package remotecache

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// A base's measures (its test census and coverage, docs/census.md) travel like passes: CI on the
// main branch stores them, signed, for the runs and stops whose base is that commit, so that
// none of them runs the base again for them.

// measuresFormat names the wire format of measures, signed with them: a pass can never be read
// as measures, nor measures as a pass.
const measuresFormat = "gauntlet-remote-measures-1"

// MaxMeasuresBytes bounds the measures stored or read: a census of tens of thousands of tests
// and the coverage of a large project stay well below it.
const MaxMeasuresBytes = 16 << 20

// measuresWire is measures as stored on the server: the payload (JSON, as the engine writes it)
// and the signature over the format, the key and the payload's digest.
type measuresWire struct {
	Format  string          `json:"format"`
	Key     string          `json:"key"`
	Payload json.RawMessage `json:"payload"`
	Sig     string          `json:"sig"`
}

func (w measuresWire) signed() []byte {
	sum := sha256.Sum256(w.Payload)
	digest := hex.EncodeToString(sum[:])
	return fmt.Appendf(nil, "%d:%s;%d:%s;%d:%s;", len(w.Format), w.Format, len(w.Key), w.Key, len(digest), digest)
}

// GetMeasures returns the measures stored under key, if the server has them and one of the
// trusted keys signed them. Like Get, a failing server makes this a miss and says why once.
func (c *Client) GetMeasures(ctx context.Context, key string) ([]byte, bool, error) {
	body, found, err := c.get(ctx, key, MaxMeasuresBytes+64<<10)
	if !found || err != nil {
		return nil, false, err
	}
	var w measuresWire
	if len(body) > MaxMeasuresBytes+64<<10 || json.Unmarshal(body, &w) != nil || w.Format != measuresFormat || w.Key != key {
		c.ignore(unverified)
		return nil, false, nil
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(w.Sig)
	if err == nil && len(sig) == ed25519.SignatureSize {
		msg := w.signed()
		for _, pub := range c.opts.Trusted {
			if ed25519.Verify(pub, msg, sig) {
				return w.Payload, true, nil
			}
		}
	}
	c.ignore(unverified)
	return nil, false, nil
}

// PutMeasures stores measures (a JSON value) under key when the client writes; measures larger
// than MaxMeasuresBytes are not stored.
func (c *Client) PutMeasures(ctx context.Context, key string, payload []byte) error {
	if !c.Writes() || len(payload) > MaxMeasuresBytes {
		return nil
	}
	// Compact, as the wire will carry it: the signature covers the bytes a reader gets.
	var compact bytes.Buffer
	if err := json.Compact(&compact, payload); err != nil {
		return fmt.Errorf("remote cache: measures under %s are not JSON: %w", key, err)
	}
	w := measuresWire{Format: measuresFormat, Key: key, Payload: compact.Bytes()}
	w.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(c.opts.Signer, w.signed()))
	body, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("remote cache: %w", err)
	}
	return c.put(ctx, key, body)
}
