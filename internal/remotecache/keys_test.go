package remotecache

import (
	"crypto/rand"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

// The texts GenerateKey prints are what the config and CI's secret take back.
func TestGeneratedKeysParseBack(t *testing.T) {
	pubText, privText, err := GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(pubText)
	if err != nil {
		t.Fatalf("ParsePublicKey(%q): %v", pubText, err)
	}
	priv, err := ParsePrivateKey(privText)
	if err != nil {
		t.Fatalf("ParsePrivateKey: %v", err)
	}
	if !pub.Equal(priv.Public()) {
		t.Fatal("the private key is not the public key's")
	}
	if FormatPublicKey(pub) != pubText {
		t.Fatalf("FormatPublicKey = %q, want %q", FormatPublicKey(pub), pubText)
	}
	if !strings.HasPrefix(pubText, "ed25519:") || !strings.HasPrefix(privText, "ed25519-private:") {
		t.Fatalf("keys %q, %q lack the prefixes that tell them apart", pubText, privText)
	}
	other, _, _ := GenerateKey(rand.Reader)
	if other == pubText {
		t.Fatal("two key pairs are the same")
	}
}

func TestPublicKeyTextIsChecked(t *testing.T) {
	pubText, privText, err := GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		privText:                                "is a private key",
		strings.TrimPrefix(pubText, "ed25519:"): `must be "ed25519:" and the key`,
		"ed25519:AAAA":                          "32 bytes",
		"ed25519:" + strings.Repeat("!", 44):    "base64",
		"":                                      `must be "ed25519:" and the key`,
	} {
		_, err := ParsePublicKey(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePublicKey(%q) = %v, want an error saying %q", text, err, want)
		}
	}
}

// A private key's text is a secret: no error about it repeats it, whatever is wrong with it.
func TestPrivateKeyTextIsCheckedWithoutShowingIt(t *testing.T) {
	pubText, privText, err := GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	seed := strings.TrimPrefix(privText, "ed25519-private:")
	for text, want := range map[string]string{
		pubText:                          "is a public key",
		seed:                             `must be "ed25519-private:" and the key`,
		"ed25519-private:" + seed[:20]:   "32 bytes",
		"ed25519-private:" + seed + "!!": "base64",
	} {
		_, err := ParsePrivateKey(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePrivateKey = %v, want an error saying %q", err, want)
			continue
		}
		if strings.Contains(err.Error(), seed[:12]) {
			t.Errorf("the error shows the key: %v", err)
		}
	}
	// Surrounding whitespace (a trailing newline of a secret pasted from a file) is no error.
	if _, err := ParsePrivateKey(privText + "\n"); err != nil {
		t.Errorf("a trailing newline: %v", err)
	}
}

// The gates never see the signing key: a test the change added could otherwise sign any pass.
func TestWithoutSigningKey(t *testing.T) {
	env := []string{"A=1", SigningKeyEnv + "=ed25519-private:x", "B=2", SigningKeyEnv + "=again", SigningKeyEnv + "_FILE=/k"}
	got := WithoutSigningKey(env)
	if strings.Join(got, " ") != "A=1 B=2 "+SigningKeyEnv+"_FILE=/k" {
		t.Fatalf("WithoutSigningKey = %q", got)
	}
	if env[1] != SigningKeyEnv+"=ed25519-private:x" {
		t.Fatal("the caller's environment was changed")
	}
}

// The variable that holds the private key is a secret by its name, and a key is a value the
// redaction hides: whatever prints it (a gate that found it) shows [REDACTED].
func TestSigningKeyIsRedacted(t *testing.T) {
	_, private, err := GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if !redact.SecretName(SigningKeyEnv, redact.Rules{}) {
		t.Fatalf("%s is not a secret name", SigningKeyEnv)
	}
	r := redact.New(redact.Rules{}, []string{SigningKeyEnv + "=" + private})
	if got := r.Redact("the key is " + private + "."); strings.Contains(got, private) {
		t.Fatalf("Redact = %q", got)
	}
}
