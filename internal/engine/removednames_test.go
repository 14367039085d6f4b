package engine

import (
	"slices"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

func TestDefinedName(t *testing.T) {
	for line, want := range map[string]string{
		"func ParseLegacy(s string) error {":           "ParseLegacy",
		"func (p *Parser) Legacy() {":                  "Legacy",
		"func Map[T any](xs []T) []T {":                "Map",
		"type Legacy struct {":                         "Legacy",
		"def parse_legacy(text):":                      "parse_legacy",
		"    async def fetch(self, url):":              "fetch",
		"class LegacyParser(Base):":                    "LegacyParser",
		"export function parseLegacy(s) {":             "parseLegacy",
		"export default async function handler(req) {": "handler",
		"export const parseLegacy = (s) => s.trim()":   "parseLegacy",
		"const retry = async function (n) {":           "retry",
		"pub fn parse_legacy(s: &str) -> Result<()> {": "parse_legacy",
		"pub(crate) async fn fetch() {":                "fetch",
		"	return ParseLegacy(s)":                       "",
		"// func Old() was here":                       "",
		"const limit = 10":                             "",
	} {
		if got := definedName(line); got != want {
			t.Errorf("definedName(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestRemovedNames(t *testing.T) {
	line := func(old, new int, text string) snapshot.Line { return snapshot.Line{Old: old, New: new, Text: text} }
	ch := &snapshot.Change{Files: []*snapshot.File{
		{Path: "lib.go", Status: snapshot.Modified, Hunks: []snapshot.Hunk{{Lines: []snapshot.Line{
			line(3, 0, "func ParseLegacy(s string) error {"), // removed
			line(9, 0, "func Moved() {"),                     // moved to other.go below
			line(12, 0, "type Old struct{}"),
			line(0, 12, "type Old struct{ x int }"), // rewritten, still defined
			line(20, 20, "func Kept() {"),           // context
		}}}},
		{Path: "other.go", Status: snapshot.Added, Hunks: []snapshot.Hunk{{Lines: []snapshot.Line{
			line(0, 1, "func Moved() {"),
		}}}},
		{Path: "lib_test.go", Status: snapshot.Modified, Hunks: []snapshot.Hunk{{Lines: []snapshot.Line{
			line(5, 0, "func TestParseLegacy(t *testing.T) {"), // a test file: its tests are the subject
		}}}},
		{Path: "gone.go", Status: snapshot.Deleted, Hunks: []snapshot.Hunk{{Lines: []snapshot.Line{
			line(1, 0, "func Gone() {"), // a deleted file excuses its tests already
		}}}},
	}}
	if got := removedNames(ch); !slices.Equal(got, []string{"ParseLegacy"}) {
		t.Errorf("removedNames = %v, want [ParseLegacy]", got)
	}
}
