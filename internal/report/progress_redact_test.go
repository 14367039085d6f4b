package report

import (
	"bytes"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/redact"
)

func TestProgressVerboseRedacts(t *testing.T) {
	var out bytes.Buffer
	secrets := redact.New(redact.Rules{}, []string{"API_TOKEN=tok-secret-value"})
	p := NewProgress(&out, ProgressOptions{Verbose: true, Secrets: secrets})
	p.Output("deploy", []byte("auth tok-secret-value ok\r"))
	p.Stop()
	if got, want := out.String(), "[deploy] auth [REDACTED] ok\n"; got != want {
		t.Errorf("verbose line = %q, want %q", got, want)
	}
}
