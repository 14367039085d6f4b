package main

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func init() {
	scriptCmds["sarifschema"] = cmdSARIFSchema
}

// sarifSchemaFile is the SARIF 2.1.0 JSON Schema vendored beside the report golden files.
const sarifSchemaFile = "../../internal/report/testdata/sarif-schema-2.1.0.json"

// cmdSARIFSchema validates a SARIF log ("sarifschema FILE", FILE may be stdout) against the
// SARIF 2.1.0 JSON Schema.
func cmdSARIFSchema(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sarifschema FILE")
	}
	f, err := os.Open(sarifSchemaFile)
	ts.Check(err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	ts.Check(err)
	c := jsonschema.NewCompiler()
	ts.Check(c.AddResource("sarif-schema-2.1.0.json", doc))
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	ts.Check(err)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(ts.ReadFile(args[0])))
	ts.Check(err)
	if err := schema.Validate(inst); err != nil {
		ts.Fatalf("%s is not valid SARIF 2.1.0: %v", args[0], err)
	}
}
