package review

import (
	"path"
	"slices"
	"strings"
)

// secretFileNames are files that hold credentials whatever directory they are in: package
// registry and git logins, database passwords, keystores' usual names.
var secretFileNames = []string{
	".npmrc", ".yarnrc.yml", ".netrc", "_netrc", ".pypirc", ".git-credentials", ".pgpass", ".my.cnf",
	".htpasswd", ".dockercfg", ".vault-token", "credentials.json", "client_secret.json",
	"service-account.json", "service_account.json", "terraform.tfstate", "terraform.tfstate.backup",
}

// secretExtensions are key stores and certificates bundled with their keys, private keys in
// other tools' formats, password databases and Terraform state (which holds every secret it set).
var secretExtensions = []string{
	".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx", ".tfstate", ".gpg", ".pgp",
}

// secretPaths are cloud and cluster credential files, known by their directory as well as their
// name ("config" alone is everywhere): a suffix of the root-relative path.
var secretPaths = []string{
	".aws/credentials", ".aws/config", ".docker/config.json", ".kube/config",
	".config/gh/hosts.yml", ".config/hub", ".m2/settings.xml", ".gradle/gradle.properties",
}

// secretDirs are directories whose every file is a credential or a token cache.
var secretDirs = []string{".azure", ".gnupg", ".ssh", ".config/gcloud"}

// LooksSecret reports whether a root-relative path names a file that is never sent to a
// reviewer: environment files (.env, .env.local), keys, certificates and key stores (*.pem,
// *.key, *.p12, *.pfx, *.jks, ...), SSH keys (id_rsa, id_ed25519.pub, id_ecdsa_sk), login files
// of package registries and git (.npmrc, .netrc, .pypirc, .git-credentials, ...), cloud and cluster
// credentials (.aws/credentials, .config/gcloud/..., .azure/..., .docker/config.json, .kube/config),
// service-account and OAuth client JSON keys (*credentials*.json, client_secret*.json,
// *service-account*.json, *service_account*.json) and Terraform state. The test is on the path
// alone: a file is never opened to decide. An id_ name with another extension is source code
// (id_gen.go), not a key.
func LooksSecret(p string) bool {
	lower := strings.ToLower(path.Clean("/" + p))
	name := path.Base(lower)
	ext := path.Ext(name)
	switch {
	case strings.HasPrefix(name, ".env"),
		strings.HasPrefix(name, "id_") && (ext == "" || ext == ".pub"),
		slices.Contains(secretFileNames, name),
		slices.Contains(secretExtensions, ext),
		ext == ".json" && jsonKeyName(strings.TrimSuffix(name, ext)):
		return true
	}
	for _, s := range secretPaths {
		if strings.HasSuffix(lower, "/"+s) {
			return true
		}
	}
	for _, d := range secretDirs {
		if strings.Contains(lower, "/"+d+"/") {
			return true
		}
	}
	return false
}

// jsonKeyParts are the parts of a JSON key file's name that say what it is.
var jsonKeyParts = []string{"credential", "client_secret", "service-account", "service_account", "serviceaccount", "secret"}

// jsonKeyName recognises the names JSON key files get: Google service-account keys
// (my-project-sa.json, service-account-key.json), OAuth client secrets, credentials exports.
func jsonKeyName(stem string) bool {
	for _, part := range jsonKeyParts {
		if strings.Contains(stem, part) {
			return true
		}
	}
	return false
}

// sshKeyNames are the names ssh-keygen gives keys (LooksSecret takes any id_ name without an
// extension; a glob cannot say "without an extension").
var sshKeyNames = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"}

// secretGlobs are the files LooksSecret names, as globs relative to a root in any directory
// below it ("**/.env*"), for the reviewers' own deny rules: the patterns of LooksSecret's lists,
// the .env family, SSH keys by their usual names, and JSON keys by the parts of their names.
func secretGlobs() []string {
	globs := []string{"**/.env*"}
	for _, n := range sshKeyNames {
		globs = append(globs, "**/"+n, "**/"+n+".pub")
	}
	for _, n := range secretFileNames {
		globs = append(globs, "**/"+n)
	}
	for _, e := range secretExtensions {
		globs = append(globs, "**/*"+e)
	}
	for _, p := range jsonKeyParts {
		globs = append(globs, "**/*"+p+"*.json")
	}
	for _, p := range secretPaths {
		globs = append(globs, "**/"+p)
	}
	for _, d := range secretDirs {
		globs = append(globs, "**/"+d+"/**")
	}
	return globs
}
