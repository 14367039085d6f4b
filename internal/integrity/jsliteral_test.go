package integrity

import (
	"reflect"
	"testing"
)

func TestJSLiteralTree(t *testing.T) {
	const src = "import { defineConfig, configDefaults } from 'vitest/config'\n" +
		"const slow = /slow\\/[a-z]+\\.ts$/ // a regular expression, its brackets no code\n" +
		"/* { not: 'code' } */\n" +
		"export default defineConfig(({ mode }) => ({\n" +
		"  plugins: [react()],\n" +
		"  test: {\n" +
		"    environment: 'jsdom',\n" +
		"    exclude: [...configDefaults.exclude, 'e2e/**', `tmp/${mode}`],\n" +
		"    coverage: { exclude: ['src/gen/**'], thresholds: { lines: 80 } },\n" +
		"    async setup() { return { x: 1 } },\n" +
		"    'retry': 2,\n" +
		"  },\n" +
		"}))\n"
	want := map[string]any{
		"plugins": []any{},
		"test": map[string]any{
			"environment": "jsdom",
			"exclude":     []any{"e2e/**", "tmp/${mode}"},
			"coverage":    map[string]any{"exclude": []any{"src/gen/**"}, "thresholds": map[string]any{"lines": float64(80)}},
			"retry":       float64(2),
		},
	}
	if got := jsLiteralTree([]byte(src)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	jest := "module.exports = {\n  testPathIgnorePatterns: ['/node_modules/'],\n  projects: [{ testMatch: ['<rootDir>/a/**/*.test.js'] }],\n};\n"
	if got := runnerSelections(jsLiteralTree([]byte(jest))); len(got) != 2 || got["projects.testMatch"].entries[0] != "<rootDir>/a/**/*.test.js" {
		t.Errorf("selections %#v", got)
	}
}

// Whatever the text, reading it ends.
func FuzzJSLiteralTree(f *testing.F) {
	for _, seed := range []string{"", "{", "}", "[", "]", "((", "{a:", "{a: [", "{...", "/", "'", "`", "{[a]: 1, b() {}, c}", "x = /[/]/ + {", "a ? {b: 1} : [2]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) { jsLiteralTree([]byte(src)) })
}
