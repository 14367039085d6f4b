package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// SARIFSchemaFile is the SARIF 2.1.0 JSON Schema as OASIS publishes it (sarif-schema-2.1.0.json),
// vendored so that the tests validate offline.
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("SARIF output does not validate: %v\n%s", err, data)
	}
}

func TestSARIFValidatesAndCarriesFindings(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, fixtureReport()); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())

	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.Tool.Driver.Name != "gauntlet" {
		t.Fatalf("version %q, tool %q", log.Version, run.Tool.Driver.Name)
	}
	// The finding without a file (a failing test without a location) is not a result.
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want 2", len(run.Results))
	}
	r0, r1 := run.Results[0], run.Results[1]
	if r0.RuleID != "test/TestX" || r0.Level != "error" || run.Tool.Driver.Rules[r0.RuleIndex].ID != r0.RuleID {
		t.Errorf("first result %+v", r0)
	}
	loc := r1.Locations[0].PhysicalLocation
	if r1.Level != "warning" || loc.ArtifactLocation.URI != "dir%20with%20space/main.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		loc.Region.StartLine != 3 || loc.Region.StartColumn != 1 {
		t.Errorf("second result %+v", r1)
	}
}

func TestSARIFEdgeCasesValidate(t *testing.T) {
	results := []gates.Result{
		{Name: "none", Status: gates.StatusPass},
		{Name: "fmt", Status: gates.StatusFail, Findings: []gates.Finding{
			{File: "a.go", Severity: "error", Message: "not formatted", Rule: "format"},
			{File: "/abs/out side.go", Line: 2, Severity: "info", Message: ""},
			{File: "b.go", Line: 1, Severity: "warning", Message: strings.Repeat("é", 10) + "\x1b[31m"},
		}},
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, New("id", time.Now(), 0, results)); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())
	for _, want := range []string{`"uri": "file:///abs/out%20side.go"`, `"level": "note"`, `"startLine": 1`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("SARIF lacks %s:\n%s", want, buf.String())
		}
	}
	var empty bytes.Buffer
	if err := WriteSARIF(&empty, New("id", time.Now(), 0, nil)); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, empty.Bytes())
}

// A relative path whose first segment holds a colon must not read as a URI with a scheme.
func TestSarifArtifactEscapesColons(t *testing.T) {
	a := sarifArtifactOf("c:foo.go")
	if a.URI != "c%3Afoo.go" || a.URIBaseID == "" {
		t.Errorf("got %+v, want c%%3Afoo.go relative to the source root", a)
	}
}

// A failing gate without a finding to show is one result on its line of the config; a gate with
// findings is shown on them, and a passing gate not at all.
func TestSARIFPlacesAGateWithoutFindingsOnItsConfigLine(t *testing.T) {
	r := New("run-1", time.Unix(0, 0), time.Second, []gates.Result{
		{Name: "silent", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 3, Reason: "exit status 3", Log: ".gauntlet/logs/r/silent.log"},
		{Name: "lint", Kind: gates.KindCheck, Status: gates.StatusFail, ExitCode: 1, Reason: "exit status 1",
			Findings: []gates.Finding{{File: "a.go", Line: 3, Severity: "error", Message: "boom"}}},
		{Name: "fine", Kind: gates.KindCheck, Status: gates.StatusPass},
	})
	for i, line := range []int{7, 4, 9} {
		r.Gates[i].Config = &ConfigPlace{File: ".gauntlet.yml", Line: line}
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())
	var log struct {
		Runs []struct {
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var onConfig []sarifResult
	for _, res := range log.Runs[0].Results {
		if res.Locations[0].PhysicalLocation.ArtifactLocation.URI == ".gauntlet.yml" {
			onConfig = append(onConfig, res)
		}
	}
	if len(onConfig) != 1 {
		t.Fatalf("want one result on .gauntlet.yml, got %+v", onConfig)
	}
	got := onConfig[0]
	if got.RuleID != "silent" || got.Level != "error" || got.Locations[0].PhysicalLocation.Region.StartLine != 7 ||
		!strings.HasPrefix(got.Message.Text, "gate silent failed: exit status 3") {
		t.Errorf("result of the gate without findings: %+v", got)
	}
}
