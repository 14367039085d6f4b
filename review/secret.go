package review

import (
	"path"
	"strings"
)

// LooksSecret reports whether a root-relative path names a file that is never sent to a
// reviewer: environment files (.env, .env.local), keys and certificates (*.pem, *.key) and SSH
// keys (id_rsa, id_ed25519.pub). The test is on the file name alone, in any directory.
func LooksSecret(p string) bool {
	name := strings.ToLower(path.Base(p))
	return strings.HasPrefix(name, ".env") ||
		strings.HasSuffix(name, ".pem") ||
		strings.HasSuffix(name, ".key") ||
		strings.HasPrefix(name, "id_")
}
