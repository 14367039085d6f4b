package main

import (
	"encoding/json"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["jsongate"] = cmdJSONGate
}

// cmdJSONGate asserts that the gate NAME of a JSON report in FILE contains WANT, as jsonhas
// compares ("jsongate FILE [-list LIST] NAME WANT"): the element of the report's "gates" (or
// LIST, say "setup") whose name is NAME.
func cmdJSONGate(ts *testscript.TestScript, neg bool, args []string) {
	list := "gates"
	if len(args) == 5 && args[1] == "-list" {
		list = args[2]
		args = append(args[:1], args[3:]...)
	}
	if len(args) != 3 {
		ts.Fatalf("usage: jsongate FILE [-list LIST] NAME WANT")
	}
	var report map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &report); err != nil {
		ts.Fatalf("jsongate: %s is not a JSON object: %v", args[0], err)
	}
	var items []map[string]any
	if err := json.Unmarshal(report[list], &items); err != nil {
		ts.Fatalf("jsongate: %s has no list %q: %v", args[0], list, err)
	}
	var want any
	if err := json.Unmarshal([]byte(args[2]), &want); err != nil {
		ts.Fatalf("jsongate: WANT is not JSON: %v", err)
	}
	var got map[string]any
	for _, it := range items {
		if it["name"] == args[1] {
			got = it
		}
	}
	if got == nil {
		if !neg {
			ts.Fatalf("jsongate: %s has no %q in %q", args[0], args[1], list)
		}
		return
	}
	if containsJSON(got, want) == neg {
		b, _ := json.Marshal(got)
		ts.Fatalf("jsongate: %s is %s, which %s %s", args[1], b, map[bool]string{true: "contains", false: "does not contain"}[neg], args[2])
	}
}
