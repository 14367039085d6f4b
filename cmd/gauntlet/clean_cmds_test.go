package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["cleantext"] = cmdCleanText
	scriptCmds["jsonfield"] = cmdJSONField
}

// cmdCleanText asserts that a file holds only text fit to show: valid UTF-8, no escape sequence,
// no control character but newline and tab, no C1 control. "cleantext -json FILE" checks every
// string inside the JSON values of FILE instead (one per line or one document), since JSON
// escapes control characters and would hide them from a plain look.
func cmdCleanText(ts *testscript.TestScript, neg bool, args []string) {
	asJSON := len(args) == 2 && args[0] == "-json"
	if asJSON {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cleantext [-json] FILE")
	}
	data := ts.ReadFile(args[0])
	texts := []string{data}
	if asJSON {
		texts = nil
		dec := json.NewDecoder(strings.NewReader(data))
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				ts.Fatalf("cleantext: %s: %v", args[0], err)
			}
			texts = append(texts, jsonStrings(v)...)
		}
	}
	for _, s := range texts {
		if err := dirtyText(s); err != nil {
			ts.Fatalf("cleantext: %s: %v in %q", args[0], err, s)
		}
	}
}

func dirtyText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("invalid UTF-8")
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return fmt.Errorf("control character %U", r)
		}
	}
	return nil
}

func jsonStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, jsonStrings(x)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, x := range v {
			out = append(out, k)
			out = append(out, jsonStrings(x)...)
		}
		return out
	}
	return nil
}

// cmdJSONField writes the string value of a top-level field of the JSON object in FILE to OUT,
// so that scripts can measure and grep a reply's text as the host reads it (unescaped).
func cmdJSONField(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonfield FILE FIELD OUT")
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &obj); err != nil {
		ts.Fatalf("jsonfield: %s: %v", args[0], err)
	}
	s, ok := obj[args[1]].(string)
	if !ok {
		ts.Fatalf("jsonfield: %s has no string field %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(s), 0o644))
}
