package scaffold

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestYAMLStringReadsBackAsItself(t *testing.T) {
	cases := []string{
		"go vet ./...", "make test", "web/**", "true", "False", "yes", "NO", "null", "~", "y",
		"", " ", " leading", "trailing ", "10m", "1.5", "0x1F", "-1", ".inf", "- item", "? key",
		"a: b", "a #b", "#comment", "&anchor", "*alias", "!tag", "%directive", "@x", "`x`",
		"|", ">", "[a]", "{a}", "a, b", `say "hi"`, "it's", `back\slash`, "tab\there",
		"line\nbreak", "cr\rhere", "bell\a", "nul\x00", "\u2028sep", "\ufeffbom", "über", "日本",
		"emoji 😀", "del\x7f", "\u0085nel", `files=$(find . -name "*.go") && [ -z "$files" ]`,
		"invalid \xff utf8 is replaced",
	}
	// Every printable ASCII character alone and inside a word, which covers each indicator.
	for c := byte(' '); c < 0x7f; c++ {
		cases = append(cases, string(c), "a"+string(c)+"b", string(c)+"a")
	}
	for _, s := range cases {
		want := strings.ToValidUTF8(s, "\uFFFD")
		for _, doc := range []string{"k: " + yamlString(s) + "\n", "k: [" + yamlString(s) + ", x]\n"} {
			var got struct{ K any }
			if err := yaml.Unmarshal([]byte(doc), &got); err != nil {
				t.Errorf("%q: %q does not parse: %v", s, doc, err)
				continue
			}
			if list, ok := got.K.([]any); ok {
				got.K = list[0]
			}
			if got.K != want {
				t.Errorf("%q written as %q reads back as %#v", s, doc, got.K)
			}
		}
	}
}

func TestYAMLStringStaysPlainWhenItCan(t *testing.T) {
	for s, want := range map[string]string{
		"go vet ./...": "go vet ./...",
		"make test":    "make test",
		"api":          "api",
		"true":         "'true'",
		"web/**":       "'web/**'",
		"it's":         "'it''s'",
		"a\nb":         `"a\nb"`,
	} {
		if got := yamlString(s); got != want {
			t.Errorf("yamlString(%q) = %s, want %s", s, got, want)
		}
	}
}
