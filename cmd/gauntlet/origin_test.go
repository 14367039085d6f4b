package main

import "testing"

// A remote's credentials never reach a page; the address itself does.
func TestWithoutCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://bot:ghp_secret@github.com/acme/shop.git": "https://github.com/acme/shop.git",
		"https://ghp_secret@github.com/acme/shop.git":     "https://github.com/acme/shop.git",
		"git@github.com:acme/shop.git":                    "git@github.com:acme/shop.git",
		"https://github.com/acme/shop.git":                "https://github.com/acme/shop.git",
		"/srv/git/shop.git":                               "/srv/git/shop.git",
	} {
		if got := withoutCredentials(in); got != want {
			t.Errorf("withoutCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}

// The page's "by" line names gauntlet's version once: a build from a clone without tags has the
// commit as its version (make build's git describe), and a build with no commit known says none.
func TestOriginVersionWords(t *testing.T) {
	for _, tt := range []struct{ v, c, want string }{
		{"eab382c", "eab382c", "eab382c"},
		{"eab382c-dirty", "eab382c", "eab382c-dirty"},
		{"dev", "unknown", "dev"},
		{"v1.4.0", "0123456789ab", "v1.4.0 (commit 0123456789ab)"},
	} {
		if got := versionWords(tt.v, tt.c); got != tt.want {
			t.Errorf("versionWords(%q, %q) = %q, want %q", tt.v, tt.c, got, tt.want)
		}
	}
}
