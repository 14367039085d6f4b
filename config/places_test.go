package config

import (
	"path/filepath"
	"testing"
)

// Each gate and setup step knows the line of its name in the file that defines it: a gate the
// local override only changes is still the main file's, one it adds is its own.
func TestPlaceOfNamesTheDefiningLine(t *testing.T) {
	c, err := loadWithLocal(t, `version: 1
setup:
  deps:
    run: make deps
gates:
  # the tests
  test:
    run: go test ./...
  lint: {run: golangci-lint run}
`, `gates:
  lint: {severity: warn}
  mine:
    run: ./my-check
`)
	if err != nil {
		t.Fatal(err)
	}
	main, local := c.Path, filepath.Join(c.Root, LocalFileName)
	for name, want := range map[string]Place{
		"deps": {File: main, Line: 3},
		"test": {File: main, Line: 7},
		"lint": {File: main, Line: 9},
		"mine": {File: local, Line: 3},
	} {
		got, ok := c.PlaceOf(name)
		if !ok || got != want {
			t.Errorf("PlaceOf(%q) = %+v, %v; want %+v", name, got, ok, want)
		}
	}
	if _, ok := c.PlaceOf("nosuch"); ok {
		t.Error("a gate the config does not have has a place")
	}
	if got, ok := c.MainOnly.PlaceOf("test"); !ok || got != (Place{File: main, Line: 7}) {
		t.Errorf("the main file alone: PlaceOf(test) = %+v, %v", got, ok)
	}
}
