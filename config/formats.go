package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// formatRules check the `format` struct tag of string fields; each returns what is wrong, or "".
var formatRules = sync.OnceValue(func() map[string]func(string) string {
	return map[string]func(string) string{
		"glob":       checkGlob,
		"relglob":    checkRelGlob,
		"regexp":     checkRegexp,
		"reldir":     checkRelDir,
		"envname":    checkEnvName,
		"httpurl":    checkHTTPURL,
		"ed25519pub": checkPublicKey,
	}
})

// publicKeyPattern is the text of an Ed25519 public key as `gauntlet cache keygen` prints it: 32
// bytes in standard base64 after "ed25519:". Any 32 bytes are a key to check a signature with.
const publicKeyPattern = `^ed25519:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$`

// checkPublicKey accepts a remote cache's public key, and tells a private key pasted in its place
// from a mistyped one: a private key in the config is published with it.
func checkPublicKey(key string) string {
	switch {
	case regexp.MustCompile(publicKeyPattern).MatchString(key):
		return ""
	case strings.HasPrefix(key, "ed25519-private:"):
		return "is a private key: it belongs in CI's secrets, never in the config; make a new pair with `gauntlet cache keygen`, since this one is no secret any more"
	}
	return fmt.Sprintf("must be a public key as `gauntlet cache keygen` prints it (ed25519:BASE64), got %q", key)
}

// checkHTTPURL accepts an absolute http or https URL with a host: the remote cache's server.
func checkHTTPURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("must be an http:// or https:// URL with a host, got %q", raw)
	}
	return ""
}

func checkEnvName(name string) string {
	if !validEnvName(name) {
		return fmt.Sprintf("must be an environment variable name (letters, digits and _, not starting with a digit), got %q", name)
	}
	return ""
}

func checkGlob(pattern string) string {
	if !doublestar.ValidatePattern(pattern) {
		return fmt.Sprintf("is not a valid glob pattern: %q", pattern)
	}
	// Globs match repository-relative paths such as "cmd/main.go"; these prefixes never match, and
	// a gate whose paths never match would silently never run.
	if strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "./") {
		return fmt.Sprintf("must be relative to the project root without a leading \"/\" or \"./\", got %q", pattern)
	}
	return ""
}

// checkRelGlob accepts a glob of files the gate writes inside the project: gauntlet reads them,
// so one that climbs out of the root would read files that are not the project's.
func checkRelGlob(pattern string) string {
	if strings.TrimSpace(pattern) == "" {
		return "must not be empty"
	}
	if problem := checkGlob(pattern); problem != "" {
		return problem
	}
	if slices.Contains(strings.Split(pattern, "/"), "..") {
		return fmt.Sprintf("must stay inside the project root, got %q", pattern)
	}
	return ""
}

func checkRegexp(pattern string) string {
	if _, err := regexp.Compile(pattern); err != nil {
		return "is not a valid regular expression: " + strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	}
	return ""
}

func checkRelDir(dir string) string {
	if filepath.IsAbs(dir) {
		return fmt.Sprintf("must be relative to the project root, got %q", dir)
	}
	if clean := filepath.Clean(dir); clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Sprintf("must stay inside the project root, got %q", dir)
	}
	return ""
}
