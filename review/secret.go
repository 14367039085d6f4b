package review

import (
	"path"
	"strings"
)

// LooksSecret reports whether a root-relative path names a file that is never sent to a
// reviewer: environment files (.env, .env.local), keys and certificates (*.pem, *.key) and SSH
// keys (id_rsa, id_ed25519.pub, id_ecdsa_sk). The test is on the file name alone, in any
// directory. An id_ name with another extension is source code (id_gen.go), not a key.
func LooksSecret(p string) bool {
	name := strings.ToLower(path.Base(p))
	return strings.HasPrefix(name, ".env") ||
		strings.HasSuffix(name, ".pem") ||
		strings.HasSuffix(name, ".key") ||
		strings.HasPrefix(name, "id_") && (path.Ext(name) == "" || path.Ext(name) == ".pub")
}
