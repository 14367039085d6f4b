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
