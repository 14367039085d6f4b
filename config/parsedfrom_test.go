package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A config loaded from one file is what parsing that file's bytes gives: ParsedFrom says so for
// exactly those bytes at that path, and for nothing with a local override.
func TestParsedFrom(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".git/": "", ".gauntlet.yml": mainWithTest})
	path := filepath.Join(root, ".gauntlet.yml")
	c, err := Load(Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(mainWithTest)
	if !c.ParsedFrom(path, data) {
		t.Fatal("the loaded config was not found parsed from its own file")
	}
	parsed, err := Parse(path, data, c.Root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, parsed) {
		t.Errorf("Load gave %+v, Parse of the same bytes %+v", c, parsed)
	}
	for name, other := range map[string]struct {
		path string
		data []byte
	}{
		"other bytes":    {path, []byte(mainWithTest + "\n")},
		"other path":     {filepath.Join(root, AltFileName), data},
		"other relative": {AltFileName, data},
	} {
		if c.ParsedFrom(other.path, other.data) {
			t.Errorf("%s: ParsedFrom said yes", name)
		}
	}

	if err := os.WriteFile(filepath.Join(root, LocalFileName), []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withLocal, err := Load(Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	if withLocal.ParsedFrom(path, data) {
		t.Error("a config with a local override was found parsed from the main file alone")
	}
}
