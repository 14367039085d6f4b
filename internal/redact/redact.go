// Package redact makes text that gauntlet composes for someone else (an agent, a user, a CI
// report) safe to show: terminal control removed and the values of secret variables hidden.
package redact

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// Mark replaces every secret value.
const Mark = "[REDACTED]"

// MinSecretBytes: shorter values ("dev", "main", "4") occur everywhere in ordinary text, and
// replacing them would garble the output while protecting nothing.
const MinSecretBytes = 6

// Rules are the user's additions to the built-in naming rule (the config's `redact:` key).
type Rules struct {
	// Names are variables whose values are always secret, whatever they are called.
	Names []string
	// Exempt are variables never treated as secret, even when their name looks like one.
	Exempt []string
}

// secretNameParts mark a variable as secret wherever they occur in its name: they are never part
// of a name that holds a count or a setting.
var secretNameParts = []string{"SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"}

// secretLastWords mark a variable as secret only as the last "_"-separated word of its name:
// AUTH as a substring would catch GIT_AUTHOR_NAME, PAT would catch PYTHON_COMPAT.
var secretLastWords = []string{"AUTH", "AUTHORIZATION", "PAT"}

// secretWordEndings mark a variable as secret when one of its "_"-separated words but the first
// ends with them (GITHUB_TOKEN, OPENAI_API_KEY, API_KEY_PROD), or the whole name does (APIKEY),
// but not when they only occur inside a word: MAX_THINKING_TOKENS holds a count,
// PIP_KEYRING_PROVIDER a setting.
var secretWordEndings = []string{"TOKEN", "KEY"}

// settingWords, as the last word of a name, say that it holds something about a secret rather
// than the secret itself: KEY_FILE is a path, AWS_ACCESS_KEY_ID an identifier, GH_TOKEN_ENABLED
// a flag, SSH_AUTH_SOCK a socket.
var settingWords = []string{
	"ID", "IDS", "FILE", "FILES", "PATH", "DIR", "NAME", "TYPE", "PROVIDER", "SOCK", "SOCKET",
	"MODE", "SIZE", "COUNT", "LIMIT", "LEN", "LENGTH", "ENABLED", "DISABLED", "ENABLE", "DISABLE",
	"REGION", "FORMAT", "ALGORITHM", "HOST", "PORT", "VERSION", "URL", "TTL", "TIMEOUT", "HEADER",
	"RATE",
}

// notSecretValues are flag-like values that secret-looking names often hold (GH_TOKEN_ENABLED=
// true); redacting them would blank out every "true" in a compiler's output.
var notSecretValues = []string{"true", "false", "yes", "no", "on", "off", "none", "null", "unset", "disabled", "enabled"}

// SecretName reports whether a variable's value is hidden. A name listed in rules.Exempt never is,
// one in rules.Names always is; otherwise, ignoring case, a name is secret when it contains
// SECRET, PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL, or when its last "_"-separated word is AUTH,
// AUTHORIZATION or PAT, or when one of its words but the first (or the whole name) ends in TOKEN
// or KEY and its last word is not a setting word (ID, FILE, PATH, ENABLED, ...: settingWords).
func SecretName(name string, rules Rules) bool {
	if slices.Contains(rules.Exempt, name) {
		return false
	}
	if slices.Contains(rules.Names, name) {
		return true
	}
	upper := strings.ToUpper(name)
	if containsAny(upper, secretNameParts) {
		return true
	}
	words := strings.Split(upper, "_")
	last := words[len(words)-1]
	if slices.Contains(secretLastWords, last) {
		return true
	}
	if slices.Contains(settingWords, last) {
		return false
	}
	// The first word of a longer name says what the rest is about (KEY_REPEAT_RATE, TOKEN_LIMIT):
	// it marks a secret only when it is the whole name.
	if len(words) > 1 {
		words = words[1:]
	}
	return slices.ContainsFunc(words, func(w string) bool { return endsWithAny(w, secretWordEndings) })
}

func containsAny(s string, parts []string) bool {
	return slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(s, p) })
}

func endsWithAny(s string, ends []string) bool {
	return slices.ContainsFunc(ends, func(end string) bool { return strings.HasSuffix(s, end) })
}

// SecretValue reports whether a secret variable's value is worth hiding: at least MinSecretBytes
// long, not a number (a count, a port, a limit) and not a flag word such as "true".
func SecretValue(v string) bool {
	return len(v) >= MinSecretBytes && !numeric(v) && !slices.Contains(notSecretValues, strings.ToLower(v))
}

// numeric matches an optionally signed decimal number: "32000", "-1", "0.75".
func numeric(v string) bool {
	v = strings.TrimLeft(v, "+-")
	digits, dot := 0, false
	for _, c := range []byte(v) {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// Redactor hides the values of secret variables. The texts it is used on may be stored or sent
// elsewhere (an agent's transcript, a CI log); a token echoed by a failing test must not travel
// with them. A nil *Redactor hides nothing but still cleans.
type Redactor struct {
	replacer *strings.Replacer // nil when there is nothing to hide
	secrets  []string          // longest first
}

// New collects the secrets among environments of "NAME=VALUE" entries (the process's, the
// config's, each gate's). A value is hidden as a whole, and also in the forms it takes once text
// is cleaned: trimmed, each line of a multi-line value (a PEM key), control characters dropped and
// whitespace collapsed, since texts are cleaned and cut line by line before they are shown.
func New(rules Rules, envs ...[]string) *Redactor {
	var secrets []string
	for _, env := range envs {
		for _, kv := range env {
			name, value, ok := strings.Cut(kv, "=")
			if ok && SecretName(name, rules) {
				secrets = appendForms(secrets, value)
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
		pairs = append(pairs, s, Mark)
	}
	return &Redactor{replacer: strings.NewReplacer(pairs...), secrets: secrets}
}

// appendForms appends the forms of a secret value worth hiding: whole, trimmed, cleaned to one
// line, and each of its lines trimmed and cleaned.
func appendForms(secrets []string, value string) []string {
	forms := []string{value, strings.TrimSpace(value), termtext.Line(value)}
	for line := range strings.Lines(value) {
		forms = append(forms, strings.TrimSpace(line), termtext.Line(line))
	}
	for _, v := range forms {
		if SecretValue(v) {
			secrets = append(secrets, v)
		}
	}
	return secrets
}

// Redact replaces every occurrence of every secret value with Mark, and a fragment of one at the
// start or end of a line: texts are cut before they are shown (a tail keeps the end of a long
// line, a message is capped), and a cut through a secret would leave its end or its beginning.
// A fragment shorter than MinSecretBytes is left, like a short value: it is ordinary text.
func (r *Redactor) Redact(s string) string {
	if r == nil || r.replacer == nil {
		return s
	}
	s = r.replacer.Replace(s)
	if !strings.Contains(s, "\n") {
		return r.edges(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = r.edges(l)
	}
	return strings.Join(lines, "\n")
}

// edges hides a secret's end at the start of line and a secret's beginning at its end.
func (r *Redactor) edges(line string) string {
	for _, sec := range r.secrets {
		line = hideEnd(line, sec)
		line = hideBeginning(line, sec)
	}
	return line
}

// hideEnd hides the longest end of sec, shorter than sec and at least MinSecretBytes long, that
// starts line.
func hideEnd(line, sec string) string {
	for k := len(sec) - 1; k >= MinSecretBytes; k-- {
		if strings.HasPrefix(line, sec[len(sec)-k:]) {
			return Mark + line[k:]
		}
	}
	return line
}

// hideBeginning hides the longest beginning of sec, shorter than sec and at least
// MinSecretBytes long, that ends line.
func hideBeginning(line, sec string) string {
	for k := len(sec) - 1; k >= MinSecretBytes; k-- {
		if strings.HasSuffix(line, sec[:k]) {
			return line[:len(line)-k] + Mark
		}
	}
	return line
}

// Text is termtext.Clean then Redact: multi-line text (output tails) fit to show anyone.
// Redacting last means that what cleaning joins (a token split by a colour code) is hidden too.
func (r *Redactor) Text(s string) string { return r.Redact(termtext.Clean(s)) }

// Line is termtext.Line then Redact: a one-line value (a reason, a hint, a message).
func (r *Redactor) Line(s string) string { return r.Redact(termtext.Line(s)) }

// Empty reports whether there is nothing to hide.
func (r *Redactor) Empty() bool { return r == nil || r.replacer == nil }
