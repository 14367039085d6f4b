package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestGolden(t *testing.T) {
	tests := []struct {
		file   string
		render func(*bytes.Buffer) error
	}{
		{"text.golden", func(b *bytes.Buffer) error {
			return WriteText(b, fixtureReport(), TextOptions{TailLines: 4, FirstFailure: "test"})
		}},
		{"json.golden", func(b *bytes.Buffer) error { return WriteJSON(b, fixtureReport()) }},
		{"junit.golden", func(b *bytes.Buffer) error { return WriteJUnit(b, fixtureReport()) }},
		{"github.golden", func(b *bytes.Buffer) error { return WriteGitHub(b, fixtureReport()) }},
		{"summary.golden", func(b *bytes.Buffer) error { return StepSummary(b, fixtureReport()) }},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tt.render(&got); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got.Bytes(), want)
			}
		})
	}
}
