package hook

import "testing"

func TestRedactor(t *testing.T) {
	env := []string{
		"GITHUB_TOKEN=ghp_abcdef123456",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI",
		"api_key=lowercase-name",
		"DB_PASSWORD=hunter22",
		"MYSQL_PASSWD=mysqlpw1",
		"GOOGLE_APPLICATION_CREDENTIALS=/keys/sa.json",
		"NPM_AUTH=npmauthvalue",
		"SHORT_TOKEN=abc",
		"FEATURE_TOKEN_ENABLED=true",
		"GIT_AUTHOR_NAME=Ada Lovelace",
		"HOME=/home/ada",
		"PATH=/usr/bin",
		"INNER_KEY=abcd",
		"OUTER_KEY=xxabcdxx",
		"PEM_PRIVATE_KEY=-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----",
		"MALFORMED_TOKEN",
	}
	r := NewRedactor(env)
	tests := []struct{ in, want string }{
		{"token ghp_abcdef123456 leaked", "token [REDACTED] leaked"},
		{"ghp_abcdef123456ghp_abcdef123456", "[REDACTED][REDACTED]"},
		{"aws wJalrXUtnFEMI", "aws [REDACTED]"},
		{"lowercase-name", "[REDACTED]"},
		{"pw hunter22 mysqlpw1", "pw [REDACTED] [REDACTED]"},
		{"reading /keys/sa.json", "reading [REDACTED]"},
		{"npmauthvalue", "[REDACTED]"},
		{"abc is short", "abc is short"},
		{"ok: true", "ok: true"},
		{"by Ada Lovelace in /home/ada", "by Ada Lovelace in /home/ada"},
		// The longer secret is hidden whole, not as "xx[REDACTED]xx".
		{"xxabcdxx and abcd", "[REDACTED] and [REDACTED]"},
		{"line MIIBOgIBAAJBAK only", "line [REDACTED] only"},
	}
	for _, tc := range tests {
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRedactorWithoutSecrets(t *testing.T) {
	const s = "nothing to hide"
	for _, r := range []*Redactor{nil, NewRedactor(nil), NewRedactor([]string{"HOME=/root"})} {
		if got := r.Redact(s); got != s {
			t.Errorf("Redact = %q, want %q", got, s)
		}
	}
}
