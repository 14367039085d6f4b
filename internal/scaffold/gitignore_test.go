package scaffold

import (
	"slices"
	"testing"
)

func TestGitignore(t *testing.T) {
	const block = "# gauntlet: run state and personal overrides\n"
	tests := []struct {
		name, existing, want string
		added                []string
	}{
		{"no file", "", block + ".gauntlet/\n.gauntlet.local.yml\n", IgnoredEntries},
		{"other entries", "bin/\n", "bin/\n" + block + ".gauntlet/\n.gauntlet.local.yml\n", IgnoredEntries},
		{"no trailing newline", "bin/", "bin/\n" + block + ".gauntlet/\n.gauntlet.local.yml\n", IgnoredEntries},
		{"one present", "/.gauntlet\n", "/.gauntlet\n" + block + ".gauntlet.local.yml\n", []string{".gauntlet.local.yml"}},
		{"both present, other spellings", "/.gauntlet/**\r\n/.gauntlet.local.yml\r\n", "/.gauntlet/**\r\n/.gauntlet.local.yml\r\n", nil},
		{"a similar name is not the entry", ".gauntlet.yml\n.gauntlet/x\n", ".gauntlet.yml\n.gauntlet/x\n" + block + ".gauntlet/\n.gauntlet.local.yml\n", IgnoredEntries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var existing []byte
			if tt.existing != "" {
				existing = []byte(tt.existing)
			}
			got, added := Gitignore(existing)
			if string(got) != tt.want || !slices.Equal(added, tt.added) {
				t.Errorf("Gitignore(%q) = %q, %q\nwant %q, %q", tt.existing, got, added, tt.want, tt.added)
			}
			// Once is enough: a second pass adds nothing.
			again, added := Gitignore(got)
			if string(again) != string(got) || added != nil {
				t.Errorf("second pass changed %q into %q (added %q)", got, again, added)
			}
		})
	}
}
