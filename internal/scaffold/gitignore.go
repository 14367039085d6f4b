package scaffold

import (
	"bytes"
	"strings"
)

// IgnoredEntries are what must stay out of git: the state directory and personal overrides.
var IgnoredEntries = []string{".gauntlet/", ".gauntlet.local.yml"}

// Gitignore returns .gitignore with the entries it lacks appended, and which those were; nothing
// added means the file is fine as it is. An entry counts as present in any spelling git treats
// alike here: anchored or not, with or without the trailing slash of a directory.
func Gitignore(existing []byte) (updated []byte, added []string) {
	added = missingIgnores(existing)
	if len(added) == 0 {
		return existing, nil
	}
	var b bytes.Buffer
	b.Write(existing)
	if len(existing) > 0 && !bytes.HasSuffix(existing, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("# gauntlet: run state and personal overrides\n")
	for _, e := range added {
		b.WriteString(e + "\n")
	}
	return b.Bytes(), added
}

// missingIgnores are the entries of IgnoredEntries the .gitignore lacks in any spelling.
func missingIgnores(existing []byte) []string {
	have := map[string]bool{}
	for _, line := range strings.Split(string(existing), "\n") {
		have[normalizeIgnore(line)] = true
	}
	var missing []string
	for _, e := range IgnoredEntries {
		if !have[normalizeIgnore(e)] {
			missing = append(missing, e)
		}
	}
	return missing
}

func normalizeIgnore(line string) string {
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	line = strings.TrimPrefix(line, "/")
	line = strings.TrimSuffix(line, "/**")
	return strings.TrimSuffix(line, "/")
}
