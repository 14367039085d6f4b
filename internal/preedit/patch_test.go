package preedit

import (
	"encoding/json"
	"testing"
)

// Codex 0.171.0's apply_patch, as its PreToolUse sent it in make hosts-e2e: tool_name
// apply_patch, the patch in tool_input.command. Each file of the patch becomes the call the
// guard judges: an added file is written whole, an update's hunks are replacements (context and
// removed lines for context and added ones), a deleted file is written empty; a moved file is
// left to the stop.
func TestPatchCalls(t *testing.T) {
	patch := "*** Begin Patch\n" +
		"*** Add File: new_test.go\n+package lib\n+\n+func TestNew(t *testing.T) {}\n" +
		"*** Update File: lib_test.go\n@@ func TestZero\n func TestZero(t *testing.T) {\n-\tif Add(0, 0) != 0 {\n+\tt.Skip()\n+\tif Add(0, 0) != 0 {\n@@\n-func TestOld() {}\n+\n" +
		"*** Delete File: old_test.go\n" +
		"*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n" +
		"*** End Patch\n"
	in, _ := json.Marshal(map[string]any{"session_id": "s", "turn_id": "t", "model": "gpt-5.5", "hook_event_name": "PreToolUse",
		"cwd": "/r", "tool_name": "apply_patch", "tool_input": map[string]any{"command": patch}})
	c := CallOf(payload(t, string(in)))
	if c.Kind != Patch || c.Command != patch {
		t.Fatalf("call: %+v", c)
	}
	got, _ := json.Marshal(c.PatchCalls())
	want, _ := json.Marshal([]Call{
		{Tool: "apply_patch", Kind: Write, Path: "new_test.go", Content: "package lib\n\nfunc TestNew(t *testing.T) {}\n", Dir: "/r", Session: "s"},
		{Tool: "apply_patch", Kind: Edit, Path: "lib_test.go", Edits: []Replace{
			{Old: "func TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n", New: "func TestZero(t *testing.T) {\n\tt.Skip()\n\tif Add(0, 0) != 0 {\n"},
			{Old: "func TestOld() {}\n", New: "\n"},
		}, Dir: "/r", Session: "s"},
		{Tool: "apply_patch", Kind: Write, Path: "old_test.go", Dir: "/r", Session: "s"},
	})
	if string(got) != string(want) {
		t.Errorf("calls:\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"", "not a patch", "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n"} {
		if calls := (Call{Kind: Patch, Command: bad}).PatchCalls(); len(calls) > 1 {
			t.Errorf("%q: %+v", bad, calls)
		}
	}
}
