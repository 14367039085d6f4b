package config

import (
	"os"
	"path/filepath"
	"testing"
)

// Shards check out the same config at different paths; their reports must carry the same
// content digest, and any change to either file must change it.
func TestContentDigestIgnoresWhereTheConfigIs(t *testing.T) {
	load := func(dir, content, local string) *Config {
		t.Helper()
		file := filepath.Join(dir, FileName)
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if local != "" {
			if err := os.WriteFile(filepath.Join(dir, LocalFileName), []byte(local), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cfg, err := Load(Options{File: file})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	a := load(t.TempDir(), "version: 1\n", "")
	b := load(t.TempDir(), "version: 1\n", "")
	if a.ContentDigest != b.ContentDigest || len(a.ContentDigest) != 64 {
		t.Errorf("same bytes at two paths: %q vs %q", a.ContentDigest, b.ContentDigest)
	}
	if a.Digest == b.Digest {
		t.Error("the fingerprint digest no longer tells the two paths apart")
	}
	if c := load(t.TempDir(), "version: 1\n# edited\n", ""); c.ContentDigest == a.ContentDigest {
		t.Error("editing the config did not change the content digest")
	}
	if d := load(t.TempDir(), "version: 1\n", "jobs: 2\n"); d.ContentDigest == a.ContentDigest {
		t.Error("a local override did not change the content digest")
	}
}
