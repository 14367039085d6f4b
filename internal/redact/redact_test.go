package redact

import "testing"

func TestSecretName(t *testing.T) {
	rules := Rules{Names: []string{"DATABASE_URL"}, Exempt: []string{"SESSION_TOKEN"}}
	secret := []string{
		"GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "AWS_SESSION_TOKEN", "OPENAI_API_KEY", "APIKEY",
		"api_key", "ACCESSTOKEN", "AWS_SECRET_ACCESS_KEY", "STRIPE_SECRET", "DB_PASSWORD",
		"MYSQL_PASSWD", "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "NPM_AUTH",
		"HTTP_AUTHORIZATION", "GITLAB_PAT", "SSH_PRIVATE_KEY", "TOKEN", "KEY",
		"API_KEY_PROD", "STRIPE_KEY_LIVE", "GITHUB_TOKEN_2", // the secret word need not be last
		"DATABASE_URL", // named in the rules
	}
	notSecret := []string{
		"MAX_THINKING_TOKENS", "CLAUDE_CODE_MAX_OUTPUT_TOKENS", "PIP_KEYRING_PROVIDER", "KEY_FILE",
		"TOKENIZERS_PARALLELISM", "GH_TOKEN_ENABLED", "AUTH_DOMAIN", "SSH_AUTH_SOCK",
		"GIT_AUTHOR_NAME", "PYTHON_COMPAT", "PATH", "HOME", "KEYBOARD_LAYOUT", "AWS_ACCESS_KEY_ID",
		"GITHUB_TOKEN_URL", "API_KEY_HEADER", "SIGNING_KEY_PATH", "KEY_REPEAT_RATE", "TOKEN_LIMIT",
		"SESSION_TOKEN", // exempt in the rules
	}
	for _, n := range secret {
		if !SecretName(n, rules) {
			t.Errorf("SecretName(%q) = false, want true", n)
		}
	}
	for _, n := range notSecret {
		if SecretName(n, rules) {
			t.Errorf("SecretName(%q) = true, want false", n)
		}
	}
}

func TestSecretValue(t *testing.T) {
	for v, want := range map[string]bool{
		"ghp_abcdef123456": true, "hunter2": true, "subprocess": true, "/keys/sa.json": true,
		"31999": false, "32000": false, "1234567890": false, "-12345678": false, "0.75000": false,
		"abcde": false, "true": false, "disabled": false, "ENABLED": false, "": false,
		"1.2.3.4.5": true, // not one number: a version or an address is not a count
	} {
		if got := SecretValue(v); got != want {
			t.Errorf("SecretValue(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestRedactor(t *testing.T) {
	env := []string{
		"GITHUB_TOKEN=ghp_abcdef123456",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI",
		"api_key=lowercase-name",
		"DB_PASSWORD=hunter22",
		"MYSQL_PASSWD=mysqlpw1",
		"GOOGLE_APPLICATION_CREDENTIALS=/keys/sa.json",
		"NPM_AUTH=npmauthvalue",
		"SHORT_TOKEN=abcde",
		"FEATURE_TOKEN_ENABLED=true",
		"GIT_AUTHOR_NAME=Ada Lovelace",
		"HOME=/home/ada",
		"PATH=/usr/bin",
		"INNER_KEY=abcdef",
		"OUTER_KEY=xxabcdefxx",
		"PEM_PRIVATE_KEY=-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----",
		"SPACED_TOKEN=two  words\there",
		"MALFORMED_TOKEN",
		"MAX_THINKING_TOKENS=31999",
		"CLAUDE_CODE_MAX_OUTPUT_TOKENS=32000",
		"PIP_KEYRING_PROVIDER=subprocess",
	}
	r := New(Rules{}, env)
	tests := []struct{ in, want string }{
		{"token ghp_abcdef123456 leaked", "token [REDACTED] leaked"},
		{"ghp_abcdef123456ghp_abcdef123456", "[REDACTED][REDACTED]"},
		{"aws wJalrXUtnFEMI", "aws [REDACTED]"},
		{"lowercase-name", "[REDACTED]"},
		{"pw hunter22 mysqlpw1", "pw [REDACTED] [REDACTED]"},
		{"reading /keys/sa.json", "reading [REDACTED]"},
		{"npmauthvalue", "[REDACTED]"},
		{"abcde is short", "abcde is short"},
		{"ok: true", "ok: true"},
		{"by Ada Lovelace in /home/ada", "by Ada Lovelace in /home/ada"},
		// The longer secret is hidden whole, not as "xx[REDACTED]xx".
		{"xxabcdefxx and abcdef", "[REDACTED] and [REDACTED]"},
		{"line MIIBOgIBAAJBAK only", "line [REDACTED] only"},
		// Counts and settings with TOKEN or KEY in their names are left alone.
		{"subprocess.CalledProcessError: expected 31999 got 32000", "subprocess.CalledProcessError: expected 31999 got 32000"},
	}
	for _, tc := range tests {
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Cleaning collapses whitespace and drops control characters; the cleaned form of a secret
	// is hidden too.
	if got, want := r.Line("said: two   words here\a"), "said: [REDACTED]"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got, want := r.Text("\x1b[31mghp_abcdef\x1b[0m123456\r\n"), "[REDACTED]\n"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestRedactorRules(t *testing.T) {
	env := []string{"DATABASE_URL=postgres://u:pw@db/x", "SESSION_TOKEN=visible-session", "OTHER_TOKEN=hidden-token"}
	r := New(Rules{Names: []string{"DATABASE_URL"}, Exempt: []string{"SESSION_TOKEN"}}, env)
	if got, want := r.Redact("postgres://u:pw@db/x visible-session hidden-token"), "[REDACTED] visible-session [REDACTED]"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

func TestRedactorSeveralSources(t *testing.T) {
	r := New(Rules{}, []string{"A_TOKEN=from-process"}, nil, []string{"B_TOKEN=from-config"}, []string{"C_KEY=from-gate1"})
	if got, want := r.Redact("from-process from-config from-gate1"), "[REDACTED] [REDACTED] [REDACTED]"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

func TestRedactorWithoutSecrets(t *testing.T) {
	const s = "nothing to hide"
	for _, r := range []*Redactor{nil, New(Rules{}), New(Rules{}, []string{"HOME=/root"})} {
		if got := r.Redact(s); got != s {
			t.Errorf("Redact = %q, want %q", got, s)
		}
		if !r.Empty() {
			t.Errorf("Empty = false, want true")
		}
		if got, want := r.Line("a\x07b\x00c\rd\u009be"), "de"; got != want {
			t.Errorf("Line = %q, want %q (cleaned even without secrets)", got, want)
		}
	}
}

// A text cut before it was redacted (a tail that keeps the end of a long line, a message capped
// at its start) can hold the secret's end at its start or its beginning at its end: those
// fragments are hidden too, when they are at least MinSecretBytes long.
func TestRedactHidesFragmentsCutAtTheEdges(t *testing.T) {
	const secret = "SUPERSECRETVALUE0123456789abcdefXYZ"
	r := New(Rules{}, []string{"MY_API_TOKEN=" + secret})
	for in, want := range map[string]string{
		"9abcdefXYZqqqq":            Mark + "qqqq",
		"line one\n9abcdefXYZ tail": "line one\n" + Mark + " tail",
		"head SUPERSECRE":           "head " + Mark,
		"head SUPERSECRE\nnext":     "head " + Mark + "\nnext",
		"XYZ and SUPER":             "XYZ and SUPER", // under MinSecretBytes: ordinary text
		"ordinary text":             "ordinary text",
		"a " + secret + " b":        "a " + Mark + " b",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
