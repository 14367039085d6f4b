package config

import (
	"strings"
	"testing"
)

func TestFilesPlaceholderMustBeAWord(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want string // "" for no problem
	}{
		{"run: eslint {files}", ""},
		{"run: prettier --check {files} && echo ok", ""},
		{"run: (cd web && eslint {files})", ""},
		{"argv: [gofmt, -l, \"{files}\"]", ""},
		{"run: eslint \"{files}\"", "must stand as a word of its own"},
		{"run: eslint --files={files}", "must stand as a word of its own"},
		{"run: eslint {files}.bak", "must stand as a word of its own"},
		{"argv: [tool, \"--files={files}\"]", "must be an argv element of its own"},
	} {
		data := "version: 1\ngates:\n  lint:\n    " + c.yaml + "\n"
		_, err := Parse(".gauntlet.yml", []byte(data), "")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.yaml, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.yaml, err, c.want)
		case c.want != "" && !strings.Contains(err.Error(), ".gauntlet.yml:4:5:"):
			t.Errorf("%s: error %v, want it at the command's key", c.yaml, err)
		}
	}
}

func TestSetupStepCannotNameFiles(t *testing.T) {
	data := "version: 1\nsetup:\n  deps:\n    run: npm ci {files}\ngates:\n  lint:\n    run: eslint .\n    needs: [deps]\n"
	_, err := Parse(".gauntlet.yml", []byte(data), "")
	if err == nil || !strings.Contains(err.Error(), `.gauntlet.yml:4:5: setup step "deps" names {files}`) {
		t.Fatalf("err = %v", err)
	}
}

func TestGlobNeedsFiles(t *testing.T) {
	data := "version: 1\ngates:\n  fmt:\n    run: gofmt -l .\n    glob: [\"**/*.go\"]\n"
	_, err := Parse(".gauntlet.yml", []byte(data), "")
	if err == nil || !strings.Contains(err.Error(), `.gauntlet.yml:5:5: "glob" narrows the files {files} gives; gate "fmt"'s command does not name {files}`) {
		t.Fatalf("err = %v", err)
	}
}
