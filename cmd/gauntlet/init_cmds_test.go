package main

import (
	"encoding/json"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["jsonvalid"] = cmdJSONValid
}

// cmdJSONValid asserts that FILE holds exactly one JSON value ("jsonvalid FILE"): a hook file
// init wrote must be one the agent host can read.
func cmdJSONValid(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: jsonvalid FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("jsonvalid: %v", err)
	}
	if valid := json.Valid(data); valid == neg {
		ts.Fatalf("%s: JSON valid = %v", args[0], valid)
	}
}
