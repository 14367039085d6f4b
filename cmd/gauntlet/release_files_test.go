package main

import (
	"encoding/json"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/config"
)

// The files that ship gauntlet (the GitHub Action, the release config, the pre-commit hook) are
// checked here against what the binary really accepts, so that none of them drifts from it.

func yamlDoc(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// Through JSON, so that the schema validator sees JSON types only.
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out, err := jsonschema.UnmarshalJSON(strings.NewReader(string(js)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func actionSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile("testdata/schemastore/github-action.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestActionMatchesTheMetadataSchema(t *testing.T) {
	sch := actionSchema(t)
	doc := yamlDoc(t, "../../action.yml")
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("action.yml does not validate against GitHub's action metadata schema: %v", err)
	}
	// The schema is strict enough to catch a broken action: a step with neither run nor uses,
	// and a missing runs section.
	broken := yamlDoc(t, "../../action.yml").(map[string]any)
	steps := broken["runs"].(map[string]any)["steps"].([]any)
	delete(steps[0].(map[string]any), "run")
	if sch.Validate(broken) == nil {
		t.Error("a step without run or uses validated")
	}
	delete(broken, "runs")
	if sch.Validate(broken) == nil {
		t.Error("an action without runs validated")
	}
}

func TestActionInputsAndCommand(t *testing.T) {
	doc := yamlDoc(t, "../../action.yml").(map[string]any)
	inputs := doc["inputs"].(map[string]any)
	for _, in := range []string{"version", "from-source", "install-only", "gates", "shard", "format", "args", "working-directory"} {
		if _, ok := inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	if got := inputs["format"].(map[string]any)["default"]; got != "json" {
		t.Errorf("format defaults to %v, want json (a report file to upload)", got)
	}
	outputs := doc["outputs"].(map[string]any)
	if v, _ := outputs["report"].(map[string]any)["value"].(string); !strings.Contains(v, "steps.run.outputs.report") {
		t.Errorf("output report = %q, want it from the run step", v)
	}
	runs := doc["runs"].(map[string]any)
	if runs["using"] != "composite" {
		t.Errorf("runs.using = %v, want composite", runs["using"])
	}
	var script string
	for _, s := range runs["steps"].([]any) {
		step := s.(map[string]any)
		if r, ok := step["run"].(string); ok {
			script += r
		}
		if _, ok := step["uses"]; ok {
			t.Errorf("step %v uses another action; the action must upload nothing and depend on nothing", step["name"])
		}
	}
	// Every flag the action passes exists on the command it passes it to.
	ios, _, _ := testStreams("", nil, ".", time.Time{})
	root := newRootCmd(ios)
	run, _, err := root.Find([]string{"run"})
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"format", "output", "shard", "timings"} {
		if run.Flags().Lookup(flag) == nil {
			t.Errorf("gauntlet run has no --%s", flag)
		}
	}
	for _, want := range []string{`gauntlet run --format "$FORMAT" -o "$report"`, `--shard "$SHARD"`, `"$bin/gauntlet" --version`,
		"go install ./cmd/gauntlet", "checksums.txt", `gauntlet_${os}_${arch}.tar.gz`, "sha256sum -c", `echo "report=$report" >> "$GITHUB_OUTPUT"`} {
		if !strings.Contains(script, want) {
			t.Errorf("action.yml's steps do not contain %q", want)
		}
	}
}

func TestGoReleaserConfig(t *testing.T) {
	doc := yamlDoc(t, "../../.goreleaser.yaml").(map[string]any)
	if v, _ := doc["version"].(json.Number); v.String() != "2" {
		t.Errorf("version = %v, want 2", doc["version"])
	}
	build := doc["builds"].([]any)[0].(map[string]any)
	if build["main"] != "./cmd/gauntlet" {
		t.Errorf("main = %v", build["main"])
	}
	if !slices.Contains(build["env"].([]any), any("CGO_ENABLED=0")) {
		t.Error("builds are not static: CGO_ENABLED=0 missing")
	}
	for key, want := range map[string][]any{"goos": {"linux", "darwin"}, "goarch": {"amd64", "arm64"}} {
		if got := build[key].([]any); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	// The stamped variables are the ones `gauntlet version` prints.
	ldflags := build["ldflags"].([]any)[0].(string)
	for _, want := range []string{"-X main.version={{ .Version }}", "-X main.commit="} {
		if !strings.Contains(ldflags, want) {
			t.Errorf("ldflags %q lack %q", ldflags, want)
		}
	}
	_, _ = version, commit
	// The action downloads by these names.
	archive := doc["archives"].([]any)[0].(map[string]any)
	if archive["name_template"] != "{{ .ProjectName }}_{{ .Os }}_{{ .Arch }}" || doc["project_name"] != "gauntlet" {
		t.Errorf("archive name %v does not give gauntlet_OS_ARCH", archive["name_template"])
	}
	if doc["checksum"].(map[string]any)["name_template"] != "checksums.txt" {
		t.Error("checksums are not in checksums.txt")
	}
}

func TestPreCommitHook(t *testing.T) {
	hooks := yamlDoc(t, "../../.pre-commit-hooks.yaml").([]any)
	if len(hooks) != 1 {
		t.Fatalf("%d hooks, want 1", len(hooks))
	}
	h := hooks[0].(map[string]any)
	want := map[string]any{"id": "gauntlet", "language": "golang", "entry": "gauntlet run", "pass_filenames": false, "always_run": true}
	for k, v := range want {
		if h[k] != v {
			t.Errorf("%s = %v, want %v", k, h[k], v)
		}
	}
}

func TestShardedWorkflowExample(t *testing.T) {
	doc := yamlDoc(t, "../../docs/ci/github-sharded.yml").(map[string]any)
	jobs := doc["jobs"].(map[string]any)
	for _, j := range []string{"plan", "gates", "verdict"} {
		if _, ok := jobs[j]; !ok {
			t.Errorf("the example workflow has no %s job", j)
		}
	}
	data, _ := os.ReadFile("../../docs/ci/github-sharded.yml")
	for _, want := range []string{"gauntlet ci matrix --max-minutes", "fromJSON(needs.plan.outputs.matrix)", "shard: ${{ matrix.shard }}",
		"format: json", "actions/upload-artifact", "gauntlet report merge --format github shards/*/*.json"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the example workflow lacks %q", want)
		}
	}
}

// The SchemaStore catalogue entry names the files gauntlet reads and the schema it publishes.
func TestSchemaStoreCatalogEntry(t *testing.T) {
	data, err := os.ReadFile("../../packaging/schemastore/catalog-entry.json")
	if err != nil {
		t.Fatal(err)
	}
	var entry map[string]any
	if err := json.Unmarshal(data, &entry); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(entry))
	if !slices.Equal(keys, []string{"description", "fileMatch", "name", "url"}) {
		t.Errorf("keys %v, want description, fileMatch, name, url (the catalogue's own)", keys)
	}
	if entry["name"] != "gauntlet" {
		t.Errorf("name = %v", entry["name"])
	}
	if got := entry["fileMatch"]; !slices.Equal(got.([]any), []any{config.FileName, config.AltFileName}) {
		t.Errorf("fileMatch = %v, want the names gauntlet looks for", got)
	}
	if entry["url"] != config.SchemaID {
		t.Errorf("url = %v, want the schema's $id %s", entry["url"], config.SchemaID)
	}
	// The URL serves the committed schema, whose own $id it is.
	var schema map[string]any
	raw, err := os.ReadFile("../../" + path.Base(config.SchemaID))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &schema); err != nil || schema["$id"] != config.SchemaID {
		t.Errorf("%s: $id %v, %v", path.Base(config.SchemaID), schema["$id"], err)
	}
}
