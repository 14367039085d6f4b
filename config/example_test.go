package config

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/gates"
)

const examplePath = "../.gauntlet.example"

func TestExampleLoads(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	// Parse, not Load: a developer's own .gauntlet.local.yml must not change what is tested.
	c, err := Parse(examplePath, data, "")
	if err != nil {
		t.Fatalf("the example does not load:\n%v", err)
	}
	if first, _, _ := bytes.Cut(data, []byte("\n")); string(first) != "# yaml-language-server: $schema=./gauntlet.schema.json" {
		t.Errorf("first line = %q, want the schema modeline", first)
	}
	kinds := map[gates.Kind]bool{}
	for _, g := range c.Gates {
		kinds[g.Kind] = true
	}
	if !kinds[gates.KindCheck] || !kinds[gates.KindReview] || !kinds[gates.KindTodos] {
		t.Errorf("kinds shown = %v, want check, review and todos gates", kinds)
	}
}

// Every key the loader knows must appear in the example at least once with a comment on it, so
// that a new key cannot ship undocumented.
func TestExampleShowsAndExplainsEveryKey(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	commented := map[string]bool{}
	note := func(section string, m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			key := section + k.Value
			commented[key] = commented[key] || k.HeadComment != "" || k.LineComment != ""
		}
	}
	root := doc.Content[0]
	note("", root)
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k, v := root.Content[i], root.Content[i+1]; k.Value {
		case "stop_hook":
			note("stop_hook.", v)
		case "redact":
			note("redact.", v)
		case "gates":
			for j := 1; j < len(v.Content); j += 2 {
				note("gates.*.", v.Content[j])
			}
		case "setup":
			for j := 1; j < len(v.Content); j += 2 {
				note("setup.*.", v.Content[j])
			}
		}
	}
	sections := map[string]reflect.Type{
		"":           reflect.TypeFor[rawFile](),
		"stop_hook.": reflect.TypeFor[rawStopHook](),
		"gates.*.":   reflect.TypeFor[rawGate](),
		"setup.*.":   reflect.TypeFor[rawSetup](),
		"redact.":    reflect.TypeFor[rawRedact](),
	}
	for prefix, typ := range sections {
		for _, name := range fieldNames(fieldsOf(typ)) {
			shown, ok := commented[prefix+name]
			switch {
			case !ok:
				t.Errorf("key %s%s is not in the example", prefix, name)
			case !shown:
				t.Errorf("key %s%s has no comment anywhere in the example", prefix, name)
			}
		}
	}
	if len(commented) == 0 {
		t.Fatal("the walk above found no keys; the test itself is broken")
	}
}
