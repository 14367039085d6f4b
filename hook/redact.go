package hook

import (
	"cmp"
	"slices"
	"strings"
)

// redactedMark replaces every secret value.
const redactedMark = "[REDACTED]"

// minSecretBytes: shorter values ("1", "dev") occur in ordinary text, and replacing them would
// garble the output while protecting nothing.
const minSecretBytes = 4

// secretNameParts mark a variable as secret when its name contains one of them.
var secretNameParts = []string{"TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"}

// secretNameWords mark a variable as secret only as a whole "_"-separated word of its name:
// "AUTH" as a substring would catch GIT_AUTHOR_NAME and hide the author's name everywhere.
var secretNameWords = []string{"AUTH", "AUTHORIZATION", "PAT"}

// notSecretValues are flag-like values that secret-looking names often hold (GH_TOKEN_ENABLED=
// true); redacting them would blank out every "true" in a compiler's output.
var notSecretValues = []string{"true", "false", "none", "null", "unset", "disabled", "enabled"}

// Redactor hides the values of secret environment variables in text shown to the agent. The
// agent's transcript may be stored or sent elsewhere; a token echoed by a failing test must not
// travel with it. A nil *Redactor redacts nothing.
type Redactor struct {
	replacer *strings.Replacer // nil when there is nothing to hide
}

// NewRedactor collects the secrets among "NAME=VALUE" entries. A name is secret when it contains
// (case-insensitively) TOKEN, SECRET, KEY, PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL, or has AUTH,
// AUTHORIZATION or PAT as one of its "_"-separated words. The value is hidden as a whole, and
// also its trimmed form and each line of a multi-line value (a PEM key), since tails are cut
// and shown line by line; values and lines under 4 bytes, and flag words such as "true", are
// left alone.
func NewRedactor(env []string) *Redactor {
	var secrets []string
	add := func(v string) {
		if len(v) >= minSecretBytes && !slices.Contains(notSecretValues, strings.ToLower(v)) {
			secrets = append(secrets, v)
		}
	}
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !isSecretName(name) {
			continue
		}
		add(value)
		add(strings.TrimSpace(value))
		if strings.Contains(value, "\n") {
			for line := range strings.Lines(value) {
				add(strings.TrimSpace(line))
			}
		}
	}
	if len(secrets) == 0 {
		return &Redactor{}
	}
	// strings.Replacer tries its patterns in argument order at each position: longest first, so
	// that a secret containing another is hidden whole rather than leaving its remainder visible.
	slices.SortFunc(secrets, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	secrets = slices.Compact(secrets)
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redactedMark)
	}
	return &Redactor{replacer: strings.NewReplacer(pairs...)}
}

func isSecretName(name string) bool {
	upper := strings.ToUpper(name)
	for _, part := range secretNameParts {
		if strings.Contains(upper, part) {
			return true
		}
	}
	for _, word := range strings.Split(upper, "_") {
		if slices.Contains(secretNameWords, word) {
			return true
		}
	}
	return false
}

// Redact replaces every occurrence of every secret value with "[REDACTED]".
func (r *Redactor) Redact(s string) string {
	if r == nil || r.replacer == nil {
		return s
	}
	return r.replacer.Replace(s)
}
