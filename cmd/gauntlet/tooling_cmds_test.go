package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func init() {
	scriptCmds["jsonhas"] = cmdJSONHas
	scriptCmds["jsonget"] = cmdJSONGet
	scriptCmds["yamlschema"] = cmdYAMLSchema
}

// cmdJSONHas asserts that FILE holds JSON containing WANT ("jsonhas FILE WANT"): an object
// contains WANT when it has each of WANT's keys with a matching value (objects recursively, other
// values exactly); an array contains WANT when one of its elements does.
func cmdJSONHas(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonhas FILE WANT")
	}
	var got, want any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &got); err != nil {
		ts.Fatalf("jsonhas: %s is not JSON: %v", args[0], err)
	}
	if err := json.Unmarshal([]byte(args[1]), &want); err != nil {
		ts.Fatalf("jsonhas: WANT is not JSON: %v", err)
	}
	found := containsJSON(got, want)
	if arr, ok := got.([]any); ok && !found {
		for _, el := range arr {
			if containsJSON(el, want) {
				found = true
				break
			}
		}
	}
	if found == neg {
		ts.Fatalf("jsonhas: %s %s %s", args[0], map[bool]string{true: "contains", false: "does not contain"}[found], args[1])
	}
}

func containsJSON(got, want any) bool {
	wantObj, ok := want.(map[string]any)
	if !ok {
		return reflect.DeepEqual(got, want)
	}
	gotObj, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, w := range wantObj {
		g, present := gotObj[k]
		if !present || !containsJSON(g, w) {
			return false
		}
	}
	return true
}

// cmdJSONGet sets the environment variable VAR to the string at KEY of the JSON object in FILE
// ("jsonget FILE KEY VAR"), so that a script can compare one command's output with another's.
func cmdJSONGet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonget FILE KEY VAR")
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &obj); err != nil {
		ts.Fatalf("jsonget: %s is not a JSON object: %v", args[0], err)
	}
	s, ok := obj[args[1]].(string)
	if !ok || s == "" {
		ts.Fatalf("jsonget: %s has no string %q", args[0], args[1])
	}
	ts.Setenv(args[2], s)
}

// cmdYAMLSchema validates a YAML file against a JSON Schema file the way an editor's YAML
// language server does ("yamlschema SCHEMA FILE"): the YAML is read as plain data first.
func cmdYAMLSchema(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: yamlschema SCHEMA FILE")
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("yamlschema: %s is not JSON: %v", args[0], err)
	}
	c := jsonschema.NewCompiler()
	url := "file://" + filepath.ToSlash(ts.MkAbs(args[0]))
	if err := c.AddResource(url, doc); err != nil {
		ts.Fatalf("yamlschema: %v", err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		ts.Fatalf("yamlschema: %s does not compile: %v", args[0], err)
	}
	value, err := yamlAsJSON(ts.ReadFile(args[1]))
	if err != nil {
		ts.Fatalf("yamlschema: %s: %v", args[1], err)
	}
	err = sch.Validate(value)
	if err != nil {
		ts.Logf("%s: %v", args[1], err)
	}
	if (err == nil) == neg {
		ts.Fatalf("yamlschema: %s is %svalid against %s", args[1], map[bool]string{true: "", false: "in"}[err == nil], args[0])
	}
}

func yamlAsJSON(text string) (any, error) {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("yaml: %w", err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("yaml to json: %w", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}
