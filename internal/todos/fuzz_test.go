package todos

import (
	"strings"
	"testing"
)

// Any transcript gives a list (and at most a read error), never a panic; a list never holds more
// items than the transcript has bytes, and Pending is the list's items that are not done.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		todoWrite(`[{"content":"a","status":"pending"},{"content":"b","status":"completed"}]`),
		taskCreate("tu1", "write tests") + "\n" + taskCreated("tu1", "1") + "\n" + taskUpdate("1", "completed"),
		taskCreate("tu1", "x") + "\n" + taskUpdate("7", "deleted") + "\n" + taskUpdate("1", "in_progress"),
		sidechain(todoWrite(`[{"content":"sub","status":"pending"}]`)),
		`{"type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"s\",\"status\":\"pending\"}]}"}}`,
		`{"type":"attachment","attachment":{"type":"task_reminder","content":[{"id":"1","subject":"s","status":"pending"}]}}`,
		`{"TodoWrite"`, "\n\n\x00\n", `{"message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":null}}]}}`,
		`{"toolUseResult":{"task":{"id":1e999}}}` + "\n" + taskCreate("a", "b"),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("Parse of an in-memory transcript failed: %v", err)
		}
		if len(l.Items) > len(data) {
			t.Fatalf("%d items from %d bytes", len(l.Items), len(data))
		}
		if len(l.Items) > 0 && !l.Found {
			t.Fatalf("items without Found: %+v", l)
		}
		pending := l.Pending()
		done := 0
		for _, it := range l.Items {
			if it.Done() {
				done++
			}
		}
		if len(pending)+done != len(l.Items) {
			t.Fatalf("Pending has %d items, want %d", len(pending), len(l.Items)-done)
		}
	})
}
