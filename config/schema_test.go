package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

const committedSchemaPath = "../gauntlet.schema.json"

// The committed file is what editors load through .gauntlet.example's modeline; it must be what
// `gauntlet schema` prints today.
func TestCommittedSchemaIsCurrent(t *testing.T) {
	want, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committedSchemaPath)
	if err != nil {
		t.Fatalf("%v\nCreate it with `make schema` (go run ./cmd/gauntlet schema > gauntlet.schema.json).", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("gauntlet.schema.json is stale: the config types changed since it was generated.\n" +
			"Regenerate it with `make schema` (go run ./cmd/gauntlet schema > gauntlet.schema.json) and commit it.")
	}
}

// Every yaml key of the raw structs is in the schema with a compatible type, enum and bounds, and
// the schema has no key the loader would reject. The expectations are derived from the Go types
// here, independently of the generator.
func TestSchemaMatchesRawTypes(t *testing.T) {
	root := generatedSchema(t)
	defs := root["$defs"].(map[string]any)
	resolve := func(node map[string]any) map[string]any {
		if r, ok := node["$ref"].(string); ok {
			return defs[strings.TrimPrefix(r, "#/$defs/")].(map[string]any)
		}
		return node
	}
	var checkObject func(section string, typ reflect.Type, node map[string]any)
	checkObject = func(section string, typ reflect.Type, node map[string]any) {
		if node["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties = %v, want false", section, node["additionalProperties"])
		}
		props := node["properties"].(map[string]any)
		keys := fieldNames(fieldsOf(typ))
		for name := range props {
			if !slices.Contains(keys, name) {
				t.Errorf("%s%s is in the schema but not a key of %s", section, name, typ.Name())
			}
		}
		for _, f := range fieldsOf(typ) {
			raw, ok := props[f.name].(map[string]any)
			if !ok {
				t.Errorf("%s%s is a key of %s but not in the schema", section, f.name, typ.Name())
				continue
			}
			if raw["description"] == nil {
				t.Errorf("%s%s has no description", section, f.name)
			}
			prop := resolve(raw)
			ft := typ.Field(f.index).Type
			want := jsonTypeOf(ft)
			if got := typesOf(prop); !slices.Contains(got, want) {
				t.Errorf("%s%s: schema type %v, want %s for Go type %s", section, f.name, got, want, ft)
				continue
			}
			leaf := prop
			if want == "array" {
				leaf = prop["items"].(map[string]any)
				if got, want := typesOf(leaf), jsonTypeOf(ft.Elem()); !slices.Contains(got, want) {
					t.Errorf("%s%s items: schema type %v, want %s", section, f.name, got, want)
				}
			}
			checkTags(t, section+f.name, f.tag, leaf)
			switch {
			case ft == reflect.TypeFor[gateMap]():
				checkObject(section+f.name+".*.", reflect.TypeFor[rawGate](), resolve(prop["additionalProperties"].(map[string]any)))
			case ft == reflect.TypeFor[setupMap]():
				checkObject(section+f.name+".*.", reflect.TypeFor[rawSetup](), resolve(prop["additionalProperties"].(map[string]any)))
			case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
				checkObject(section+f.name+".", ft.Elem(), prop)
			}
		}
	}
	checkObject("", reflect.TypeFor[rawFile](), root)
	if root["$schema"] != SchemaDraft {
		t.Errorf("$schema = %v, want %s", root["$schema"], SchemaDraft)
	}
	if root["$id"] != SchemaID || !strings.HasSuffix(SchemaID, "/gauntlet.schema.json") {
		t.Errorf("$id = %v, want %s, the published gauntlet.schema.json", root["$id"], SchemaID)
	}
}

func checkTags(t *testing.T, key string, tag reflect.StructTag, prop map[string]any) {
	t.Helper()
	if enum := tag.Get("enum"); enum != "" {
		var got []string
		for _, v := range prop["enum"].([]any) {
			got = append(got, v.(string))
		}
		if want := strings.Split(enum, ","); !slices.Equal(got, want) {
			t.Errorf("%s: enum %v, want %v", key, got, want)
		}
	}
	for tagKey, schemaKey := range map[string]string{"min": "minimum", "max": "maximum"} {
		want, ok := tagInt(tag, tagKey)
		got, has := prop[schemaKey].(float64)
		switch {
		case ok && (!has || int64(got) != want):
			t.Errorf("%s: %s = %v, want %d", key, schemaKey, prop[schemaKey], want)
		case !ok && has:
			t.Errorf("%s: %s = %v, but the type has no %s tag", key, schemaKey, got, tagKey)
		}
	}
}

func jsonTypeOf(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[duration](), reflect.TypeFor[need]():
		return "string"
	case reflect.TypeFor[envMap](), reflect.TypeFor[gateMap](), reflect.TypeFor[setupMap]():
		return "object"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonTypeOf(t.Elem())
	case reflect.Slice:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Bool:
		return "boolean"
	case reflect.Struct:
		return "object"
	}
	return "unknown Go type " + t.String()
}

func typesOf(node map[string]any) []string {
	switch v := node["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, s := range v {
			out = append(out, s.(string))
		}
		return out
	}
	return nil
}

// Every format rule of the loader has its schema counterpart, and the generator covers every kind.
func TestSchemaCoversFormatsAndKinds(t *testing.T) {
	for name := range formatRules() {
		if _, ok := formatSchemas()[name]; !ok {
			t.Errorf("format %q has no entry in formatSchemas", name)
		}
	}
	if got := len(kindRules()); got != len(gateKinds) {
		t.Errorf("kindRules has %d rules, want one per kind (%d)", got, len(gateKinds))
	}
	for key := range schemaDocs() {
		section, name := "", key
		if i := strings.LastIndex(key, "."); i >= 0 {
			section, name = key[:i+1], key[i+1:]
		}
		typ := map[string]reflect.Type{topSection: reflect.TypeFor[rawFile](), stopHookSection: reflect.TypeFor[rawStopHook](), gateSection: reflect.TypeFor[rawGate](), setupSection: reflect.TypeFor[rawSetup](), "redact.": reflect.TypeFor[rawRedact](), "cache.": reflect.TypeFor[rawCache](), "cache.remote.": reflect.TypeFor[rawRemoteCache]()}[section]
		if typ == nil || !slices.Contains(fieldNames(fieldsOf(typ)), name) {
			t.Errorf("schemaDocs describes %q, which is not a config key", key)
		}
	}
}

func TestExampleValidatesAgainstSchema(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := compiledSchema(t).Validate(yamlToJSONValue(t, string(data))); err != nil {
		t.Fatalf(".gauntlet.example does not validate against the schema:\n%v", err)
	}
}

// The schema and the loader accept and reject the same configs, as far as a schema can tell.
func TestSchemaAgreesWithLoader(t *testing.T) {
	const head = "version: 1\ngates:\n  a:\n"
	tests := []struct {
		name string
		yaml string
		ok   bool
	}{
		{"minimal", "version: 1\n", true},
		{"no gates", "version: 1\ngates:\n", true},
		{"check with run", head + "    run: go vet ./...\n", true},
		{"check with argv", head + "    argv: [go, test]\n", true},
		{"review", head + "    kind: review\n    cli: claude\n    prompt: look\n", true},
		{"todos", head + "    kind: todos\n", true},
		{"every top-level key", "version: 1\njobs: 2\ntimeout: 1h30m\nfail_fast: true\nbase: main\nkeep_runs: 0\nenv: {A: x, N: 4, B: true}\nstop_hook: {max_attempts: 1, timeout: 9m, lock_wait: 1.5s, subagents: true, honor_active_flag: false}\n", true},
		{"empty stop_hook and env", "version: 1\nstop_hook:\nenv:\n", true},
		{"null paths", head + "    run: x\n    paths:\n", true},
		{"glob and dir", head + "    run: x\n    dir: sub/dir\n    paths: ['**/*.go', .github/**]\n", true},
		{"empty infra_exit_codes", head + "    run: x\n    infra_exit_codes: []\n", true},
		{"remote cache", "version: 1\ncache:\n  remote:\n    url: https://c.example/g\n    write: true\n    public_keys: [" + testPublicKey + ", " + testPublicKey2 + "]\n", true},

		{"missing version", "jobs: 2\n", false},
		{"version 2", "version: 2\n", false},
		{"version as string", "version: \"1\"\n", false},
		{"unknown top-level key", "version: 1\njobz: 4\n", false},
		{"unknown gate key", head + "    run: x\n    timout: 5m\n", false},
		{"unknown stop_hook key", "version: 1\nstop_hook: {lock_wiat: 5s}\n", false},
		{"jobs zero", "version: 1\njobs: 0\n", false},
		{"jobs as text", "version: 1\njobs: four\n", false},
		{"negative keep_runs", "version: 1\nkeep_runs: -1\n", false},
		{"duration in words", "version: 1\ntimeout: 10 minutes\n", false},
		{"negative duration", "version: 1\ntimeout: -1s\n", false},
		{"duration as number", "version: 1\ntimeout: 10\n", false},
		{"blank base", "version: 1\nbase: ' '\n", false},
		{"bad gate name", "version: 1\ngates:\n  Bad_Name:\n    run: x\n", false},
		{"gates as list", "version: 1\ngates:\n  - run: x\n", false},
		{"gate without body", "version: 1\ngates:\n  a:\n", false},
		{"run and argv", head + "    run: x\n    argv: [x]\n", false},
		{"neither run nor argv", head + "    hint: nothing\n", false},
		{"empty argv", head + "    argv: []\n", false},
		{"blank run", head + "    run: ''\n", false},
		{"argv as string", head + "    argv: go test\n", false},
		{"bad kind", head + "    kind: lint\n    run: x\n", false},
		{"bad severity", head + "    run: x\n    severity: fatal\n", false},
		{"bad when", head + "    run: x\n    when: nightly\n", false},
		{"bad on_timeout", head + "    run: x\n    on_timeout: pass\n", false},
		{"exit code too large", head + "    run: x\n    infra_exit_codes: [300]\n", false},
		{"absolute dir", head + "    run: x\n    dir: /tmp\n", false},
		{"dir escaping", head + "    run: x\n    dir: ../elsewhere\n", false},
		{"absolute glob", head + "    run: x\n    paths: [/src/**]\n", false},
		{"dot-slash glob", head + "    run: x\n    exclude: [./docs/**]\n", false},
		{"bad regexp", head + "    run: x\n    infra_patterns: ['(unclosed']\n", false},
		{"bad env name", "version: 1\nenv: {1BAD: x}\n", false},
		{"env value a list", "version: 1\nenv: {A: [x]}\n", false},
		{"enabled as text", head + "    run: x\n    enabled: yes\n", false},
		{"review key on a check", head + "    run: x\n    cli: claude\n", false},
		{"run on a review", head + "    kind: review\n    cli: claude\n    run: x\n", false},
		{"review without cli", head + "    kind: review\n", false},
		{"prompt and prompt_file", head + "    kind: review\n    cli: claude\n    prompt: a\n    prompt_file: b\n", false},
		{"max_diff_bytes zero", head + "    kind: review\n    cli: claude\n    max_diff_bytes: 0\n", false},
		{"command on todos", head + "    kind: todos\n    argv: [x]\n", false},
		{"private key as a public key", "version: 1\ncache:\n  remote:\n    url: https://c.example/g\n    public_keys: [" + testPrivateKey + "]\n", false},
		{"public key cut short", "version: 1\ncache:\n  remote:\n    url: https://c.example/g\n    public_keys: [" + testPublicKey[:30] + "]\n", false},
		{"the retired shared secret", "version: 1\ncache:\n  remote:\n    url: https://c.example/g\n    public_keys: [" + testPublicKey + "]\n    key_env: K\n", false},
	}
	sch := compiledSchema(t)
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, loadErr := Parse(filepath.Join(dir, FileName), []byte(tt.yaml), dir)
			if (loadErr == nil) != tt.ok {
				t.Fatalf("loader: err = %v, want ok=%v (the case itself is wrong)", loadErr, tt.ok)
			}
			schemaErr := sch.Validate(yamlToJSONValue(t, tt.yaml))
			if (schemaErr == nil) != tt.ok {
				t.Errorf("schema: err = %v, want ok=%v like the loader (loader said: %v)", schemaErr, tt.ok, loadErr)
			}
		})
	}
}

func generatedSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	return root
}

// compiledSchema compiles the generated schema with format assertions on, so that "regex" is
// checked as the loader checks it.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "gauntlet.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// yamlToJSONValue reads YAML the way an editor's language server does: as plain data, then as JSON.
func yamlToJSONValue(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("yaml to json: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestSchemaURL(t *testing.T) {
	for v, want := range map[string]string{
		"0.4.1":  "https://raw.githubusercontent.com/gauntlet-dev/gauntlet/v0.4.1/gauntlet.schema.json",
		"v1.2.3": "https://raw.githubusercontent.com/gauntlet-dev/gauntlet/v1.2.3/gauntlet.schema.json",
		// Anything else is no release: the schema on main.
		"dev":                                 SchemaID,
		"0.4.2-snapshot":                      SchemaID,
		"0.4.2-0.20260101120000-abcdef123456": SchemaID,
		"1.2":                                 SchemaID,
		"1.2.x":                               SchemaID,
	} {
		if got := SchemaURL(v); got != want {
			t.Errorf("SchemaURL(%q) = %s, want %s", v, got, want)
		}
	}
	if got := SchemaLine("1.0.0"); got != "# yaml-language-server: $schema=https://raw.githubusercontent.com/gauntlet-dev/gauntlet/v1.0.0/gauntlet.schema.json\n" {
		t.Errorf("SchemaLine = %q", got)
	}
}
