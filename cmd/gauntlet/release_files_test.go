package main

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
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
	for _, in := range []string{"version", "from-source", "install-only", "gates", "shard", "format", "sarif", "sarif-category",
		"cache", "args", "working-directory", "token"} {
		if _, ok := inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	for in, want := range map[string]string{"format": "json", "sarif": "false", "cache": "true"} {
		if got := inputs[in].(map[string]any)["default"]; got != want {
			t.Errorf("%s defaults to %v, want %s", in, got, want)
		}
	}
	outputs := doc["outputs"].(map[string]any)
	for out, step := range map[string]string{"report": "steps.run.outputs.report", "sarif": "steps.run.outputs.sarif", "version": "steps.install.outputs.version"} {
		if v, _ := outputs[out].(map[string]any)["value"].(string); !strings.Contains(v, step) {
			t.Errorf("output %s = %q, want it from %s", out, v, step)
		}
	}
	runs := doc["runs"].(map[string]any)
	if runs["using"] != "composite" {
		t.Errorf("runs.using = %v, want composite", runs["using"])
	}
	// The actions it uses, each only when its input asks for it: the cache, and the SARIF upload.
	// Each is pinned by commit (internal/release/action checks the form and the tag comment).
	allowed := map[string]string{
		"actions/cache/restore@0057852bfaa89a56745cba8c7296529d2fc39830":             "inputs.cache == 'true'",
		"actions/cache/save@0057852bfaa89a56745cba8c7296529d2fc39830":                "inputs.cache == 'true'",
		"github/codeql-action/upload-sarif@8aad20d150bbac5944a9f9d289da16a4b0d87c1e": "inputs.sarif == 'true'",
	}
	var script string
	for _, s := range runs["steps"].([]any) {
		step := s.(map[string]any)
		if r, ok := step["run"].(string); ok {
			script += r
		}
		if uses, ok := step["uses"].(string); ok {
			cond, known := allowed[uses]
			if !known {
				t.Errorf("step %v uses %s, which the action has no reason to depend on", step["name"], uses)
			}
			if when, _ := step["if"].(string); !strings.Contains(when, cond) {
				t.Errorf("step %v (%s) runs if %q, want it only when %s", step["name"], uses, when, cond)
			}
		}
	}
	// Every flag the action passes exists on the command it passes it to.
	ios, _, _ := testStreams("", nil, ".", time.Time{})
	root := newRootCmd(ios)
	run, _, err := root.Find([]string{"run"})
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"format", "shard", "timings"} {
		if run.Flags().Lookup(flag) == nil {
			t.Errorf("gauntlet run has no --%s", flag)
		}
	}
	if f := run.Flags().Lookup("format"); f == nil || f.Value.Type() != "stringArray" {
		t.Error("gauntlet run --format is not repeatable: the action writes the JSON report and the SARIF in one run")
	}
	for _, want := range []string{`gauntlet run --format "$FORMAT=$report"`, `--format "sarif=$sarif"`, `--shard "$SHARD"`,
		`node "$GITHUB_ACTION_PATH/action/resolve.mjs"`, `sh "$GITHUB_ACTION_PATH/install.sh" -v "$TAG" -b "$bin"`,
		"go build -trimpath", `"$bin/$exe" --version`, `echo "report=$report" >> "$GITHUB_OUTPUT"`, "RUNNER_TOOL_CACHE",
		"git rev-parse --path-format=absolute --git-common-dir"} {
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
	for key, want := range map[string][]any{"goos": {"linux", "darwin", "windows"}, "goarch": {"amd64", "arm64"}} {
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
	// Windows users get a zip, which Explorer and PowerShell open; install.sh expects it too.
	override := archive["format_overrides"].([]any)[0].(map[string]any)
	if override["goos"] != "windows" || !slices.Equal(override["formats"].([]any), []any{"zip"}) {
		t.Errorf("format_overrides = %v, want a zip for windows", override)
	}

	// Every channel is there: deb and rpm, the cask in the tap, the multi-arch image, an SBOM per
	// archive. (The npm packages are assembled from dist/ by packaging/npm/assemble.mjs.)
	nfpm := doc["nfpms"].([]any)[0].(map[string]any)
	if !slices.Equal(nfpm["formats"].([]any), []any{"deb", "rpm"}) || nfpm["license"] != "MIT" {
		t.Errorf("nfpms = %v, want deb and rpm, MIT", nfpm)
	}
	cask := doc["homebrew_casks"].([]any)[0].(map[string]any)
	if repo := cask["repository"].(map[string]any); repo["owner"] != "gauntlet-dev" || repo["name"] != "homebrew-tap" {
		t.Errorf("the cask goes to %v, want gauntlet-dev/homebrew-tap", repo)
	}
	if _, deprecated := doc["brews"]; deprecated {
		t.Error("brews is deprecated (goreleaser check fails on it); the tap gets a cask")
	}
	image := doc["dockers_v2"].([]any)[0].(map[string]any)
	if !slices.Equal(image["platforms"].([]any), []any{"linux/amd64", "linux/arm64"}) || image["dockerfile"] != "Dockerfile" {
		t.Errorf("dockers_v2 = %v, want linux/amd64 and linux/arm64 from Dockerfile", image)
	}
	if sbom := doc["sboms"].([]any)[0].(map[string]any); sbom["artifacts"] != "archive" {
		t.Errorf("sboms = %v, want one per archive", sbom)
	}
}

// The image's Dockerfile copies the binary goreleaser built for the platform into
// distroless/static and compiles nothing. Docker does not run where the tests do, so this is
// all that is checked of the image besides `goreleaser check`.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var instructions []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			instructions = append(instructions, line)
		}
	}
	want := []string{
		"FROM gcr.io/distroless/static-debian12:nonroot",
		"ARG TARGETPLATFORM",
		"COPY $TARGETPLATFORM/gauntlet /usr/bin/gauntlet",
		`ENTRYPOINT ["/usr/bin/gauntlet"]`,
	}
	if !slices.Equal(instructions, want) {
		t.Errorf("Dockerfile instructions:\n%s\nwant:\n%s", strings.Join(instructions, "\n"), strings.Join(want, "\n"))
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

func TestWorkflowExample(t *testing.T) {
	doc := yamlDoc(t, "../../docs/ci/github.yml").(map[string]any)
	perms := doc["permissions"].(map[string]any)
	if perms["security-events"] != "write" {
		t.Errorf("permissions %v: the SARIF upload needs security-events: write", perms)
	}
	data, _ := os.ReadFile("../../docs/ci/github.yml")
	for _, want := range []string{"uses: gauntlet-dev/gauntlet@v1", "sarif: true", "fetch-depth: 0", "steps.gauntlet.outputs.report"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the example workflow lacks %q", want)
		}
	}
}

// actionlint checks the example workflows the way GitHub would read them (expressions, contexts,
// the inputs of known actions). It is built through the Go module proxy by `make lint`, which
// puts it in bin/tools; without it this test says so and skips.
func TestWorkflowExamplesPassActionlint(t *testing.T) {
	actionlint, err := exec.LookPath("actionlint")
	if err != nil {
		actionlint, err = filepath.Abs("../../bin/tools/actionlint")
		if _, statErr := os.Stat(actionlint); err != nil || statErr != nil {
			t.Skip("actionlint is not installed (make lint builds it into bin/tools through the Go module proxy)")
		}
	}
	files, _ := filepath.Glob("../../docs/ci/*.yml")
	if len(files) < 2 {
		t.Fatalf("example workflows: %v", files)
	}
	out, err := exec.Command(actionlint, append([]string{"-no-color"}, files...)...).CombinedOutput()
	if err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

// releaseFilesDir is where the release build has `gauntlet release-files` write (ignored by git).
const releaseFilesDir = "build/release-files"

// What the packages carry besides the binary: the man pages and completions `gauntlet
// release-files` writes before the build (every archive, deb, rpm and the cask), and for the deb
// the copyright file and changelog Debian policy asks for (lintian: no-copyright-file,
// no-changelog). The cask downloads from the release of its own version: with the default URL a
// snapshot pointed at download/v0.0.0/.
func TestPackagesShipManPagesCompletionsAndDebianFiles(t *testing.T) {
	doc := yamlDoc(t, "../../.goreleaser.yaml").(map[string]any)
	hooks := doc["before"].(map[string]any)["hooks"].([]any)
	if !slices.ContainsFunc(hooks, func(h any) bool {
		s, _ := h.(string)
		return strings.Contains(s, "./cmd/gauntlet release-files --version {{ .Version }} --date {{ .CommitDate }} "+releaseFilesDir)
	}) {
		t.Errorf("before.hooks = %v: none writes the release files into %s", hooks, releaseFilesDir)
	}

	archive := doc["archives"].([]any)[0].(map[string]any)
	var archived []string
	for _, f := range archive["files"].([]any) {
		if m, ok := f.(map[string]any); ok {
			archived = append(archived, m["src"].(string)+" -> "+m["dst"].(string))
		}
	}
	for _, want := range []string{releaseFilesDir + "/manpages/* -> manpages", releaseFilesDir + "/completions/* -> completions"} {
		if !slices.Contains(archived, want) {
			t.Errorf("archives.files %v lack %s", archived, want)
		}
	}

	type content struct{ src, dst, packager string }
	var contents []content
	for _, c := range doc["nfpms"].([]any)[0].(map[string]any)["contents"].([]any) {
		m := c.(map[string]any)
		p, _ := m["packager"].(string)
		contents = append(contents, content{m["src"].(string), m["dst"].(string), p})
	}
	for _, want := range []content{
		{"packaging/deb/copyright", "/usr/share/doc/gauntlet/copyright", "deb"},
		{releaseFilesDir + "/deb/changelog.gz", "/usr/share/doc/gauntlet/changelog.gz", "deb"},
		{"packaging/deb/lintian-overrides", "/usr/share/lintian/overrides/gauntlet", "deb"},
		{releaseFilesDir + "/manpages/*.1.gz", "/usr/share/man/man1/", ""},
		{releaseFilesDir + "/completions/gauntlet.bash", "/usr/share/bash-completion/completions/gauntlet", ""},
		{releaseFilesDir + "/completions/_gauntlet", "/usr/share/zsh/vendor-completions/_gauntlet", "deb"},
		{releaseFilesDir + "/completions/_gauntlet", "/usr/share/zsh/site-functions/_gauntlet", "rpm"},
		{releaseFilesDir + "/completions/gauntlet.fish", "/usr/share/fish/vendor_completions.d/gauntlet.fish", ""},
	} {
		if !slices.Contains(contents, want) {
			t.Errorf("nfpms contents %v lack %v", contents, want)
		}
	}
	if section := doc["nfpms"].([]any)[0].(map[string]any)["section"]; section != "devel" {
		t.Errorf("nfpms section = %v, want devel (lintian: unknown-section default)", section)
	}
	// A synopsis line within 80 columns, then the extended description (lintian:
	// synopsis-too-long, extended-description-is-empty).
	description, _ := doc["nfpms"].([]any)[0].(map[string]any)["description"].(string)
	synopsis, extended, _ := strings.Cut(strings.TrimSpace(description), "\n")
	if len(synopsis) > 80 || strings.TrimSpace(extended) == "" {
		t.Errorf("nfpms description %q: want a synopsis of at most 80 columns, then an extended description", description)
	}
	copyright, err := os.ReadFile("../../packaging/deb/copyright")
	if err != nil {
		t.Fatal(err)
	}
	license, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	// The notice of LICENSE ("Copyright (c) 2026 The gauntlet authors") and its text, indented.
	notice := strings.TrimPrefix(strings.SplitN(string(license), "\n", 4)[2], "Copyright (c) ")
	if !strings.HasPrefix(string(copyright), "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n") ||
		!strings.Contains(string(copyright), "\nCopyright: "+notice+"\nLicense: MIT\n") ||
		!strings.Contains(string(copyright), "\nLicense: MIT\n Permission is hereby granted") {
		t.Errorf("packaging/deb/copyright is not a machine-readable copyright file with the LICENSE's notice:\n%s", copyright)
	}

	cask := doc["homebrew_casks"].([]any)[0].(map[string]any)
	if got := cask["manpages"]; !slices.Equal(got.([]any), []any{"manpages/gauntlet.1.gz"}) {
		t.Errorf("cask manpages = %v", got)
	}
	completions := cask["completions"].(map[string]any)
	for shell, want := range map[string]string{"bash": "completions/gauntlet.bash", "zsh": "completions/_gauntlet", "fish": "completions/gauntlet.fish"} {
		if completions[shell] != want {
			t.Errorf("cask completions.%s = %v, want %s", shell, completions[shell], want)
		}
	}
	url := cask["url"].(map[string]any)["template"].(string)
	if !strings.Contains(url, "/releases/download/v{{ .Version }}/{{ .ArtifactName }}") {
		t.Errorf("cask url %q: want the release of the cask's own version", url)
	}
}

// The SBOMs name the syft that wrote them: built with go install, syft says "[not provided]"
// unless its version is stamped in.
func TestSyftIsBuiltWithItsVersion(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(data)
	if !strings.Contains(makefile, "SYFT_VERSION := ") || !strings.Contains(makefile, "-ldflags '-X main.version=$(SYFT_VERSION)' $(SYFT)") {
		t.Error("the Makefile builds syft without -X main.version: its SBOMs' creator reads syft-[not provided]")
	}
}
