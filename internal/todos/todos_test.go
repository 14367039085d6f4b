package todos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// Transcript lines shaped like Claude Code's (abridged: real lines carry more fields).
func todoWrite(todos string) string {
	return `{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant",` +
		`"model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_01","name":"TodoWrite","input":{"todos":` + todos + `}}],` +
		`"stop_reason":"tool_use"},"sessionId":"s","uuid":"u"}`
}

func taskCreate(toolUseID, subject string) string {
	return `{"type":"assistant","isSidechain":false,"message":{"role":"assistant","content":[{"type":"tool_use","id":"` + toolUseID +
		`","name":"TaskCreate","input":{"subject":"` + subject + `","description":"d","activeForm":"Doing it"}}]}}`
}

func taskCreated(toolUseID, id string) string {
	return `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"` + toolUseID + `","type":"tool_result","content":"Task #` + id +
		` created successfully"}]},"toolUseResult":{"task":{"id":"` + id + `","subject":"s"}}}`
}

func taskUpdate(id, status string) string {
	return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_u","name":"TaskUpdate","input":{"taskId":"` +
		id + `","status":"` + status + `"}}]}}`
}

const (
	userPrompt   = `{"type":"user","message":{"role":"user","content":"please add the feature"},"uuid":"u0"}`
	toolResult   = `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01","type":"tool_result","content":"Todos have been modified successfully."}]},"toolUseResult":{"oldTodos":[],"newTodos":[]}}`
	allDone      = `[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"},{"content":"Add tests","status":"completed","activeForm":"Adding tests"}]`
	twoOpen      = `[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"},{"content":"Add tests","status":"in_progress","activeForm":"Adding tests"},{"content":"Update the README","status":"pending","activeForm":"Updating the README"}]`
	codexPlan    = `{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"Refactor\",\"status\":\"completed\"},{\"step\":\"Ship\",\"status\":\"in_progress\"}]}","call_id":"call_1"}}`
	taskReminder = `{"type":"attachment","attachment":{"type":"task_reminder","content":[{"id":"4","subject":"Profile","activeForm":"Profiling","status":"completed"},{"id":"5","subject":"Benchmark","activeForm":"Benchmarking","status":"pending"}]}}`
)

func sidechain(line string) string {
	return strings.Replace(line, `"isSidechain":false`, `"isSidechain":true`, 1)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name        string
		lines       []string
		wantFound   bool
		wantPending []string
	}{
		{"no todo list", []string{userPrompt}, false, nil},
		{"the latest TodoWrite wins", []string{userPrompt, todoWrite(twoOpen), toolResult, todoWrite(allDone)}, true, nil},
		{"incomplete TodoWrite", []string{todoWrite(allDone), todoWrite(twoOpen)}, true, []string{"Add tests", "Update the README"}},
		{"a subagent's list is not the agent's", []string{todoWrite(allDone), sidechain(todoWrite(twoOpen))}, true, nil},
		{"tasks created and partly completed", []string{
			taskCreate("toolu_a", "First"), taskCreated("toolu_a", "1"),
			taskCreate("toolu_b", "Second"), taskCreated("toolu_b", "2"),
			taskCreate("toolu_c", "Third"), taskCreated("toolu_c", "3"),
			taskUpdate("1", "in_progress"), taskUpdate("1", "completed"), taskUpdate("3", "deleted"),
		}, true, []string{"Second"}},
		{"task ids come from the tool result", []string{
			taskCreate("toolu_a", "First"), taskCreated("toolu_a", "7"), taskUpdate("7", "completed"),
		}, true, nil},
		{"task ids count up without tool results", []string{
			taskCreate("toolu_a", "First"), taskCreate("toolu_b", "Second"), taskUpdate("2", "completed"),
		}, true, []string{"First"}},
		{"a task reminder is a snapshot", []string{taskCreate("toolu_a", "Old"), taskReminder}, true, []string{"Benchmark"}},
		{"tasks after TodoWrite win", []string{todoWrite(allDone), taskCreate("toolu_a", "New task")}, true, []string{"New task"}},
		{"TodoWrite after tasks wins", []string{taskCreate("toolu_a", "New task"), todoWrite(allDone)}, true, nil},
		{"codex update_plan", []string{codexPlan}, true, []string{"Ship"}},
		{"garbage lines are skipped", []string{"not json", `{"TodoWrite"`, todoWrite(twoOpen), ""}, true, []string{"Add tests", "Update the README"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := Parse(strings.NewReader(strings.Join(tt.lines, "\n") + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			var pending []string
			for _, it := range list.Pending() {
				pending = append(pending, it.Content)
			}
			if list.Found != tt.wantFound || strings.Join(pending, "|") != strings.Join(tt.wantPending, "|") {
				t.Errorf("found %v pending %q, want found %v pending %q", list.Found, pending, tt.wantFound, tt.wantPending)
			}
		})
	}
}

func TestParseSkipsHugeLines(t *testing.T) {
	huge := `{"type":"user","message":{"content":"` + strings.Repeat("x", maxLineBytes+10) + `"}}`
	list, err := Parse(strings.NewReader(todoWrite(twoOpen) + "\n" + huge + "\n" + todoWrite(allDone)))
	if err != nil {
		t.Fatal(err)
	}
	if !list.Found || len(list.Pending()) != 0 || len(list.Items) != 2 {
		t.Errorf("list %+v: the line after a huge one was not read", list)
	}
}

func writeTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(writeTranscript(t, todoWrite(twoOpen)), link)

	tests := []struct {
		name       string
		path       string
		wantStatus gates.Status
		wantReason string // a part of the reason
	}{
		{"outside a hook", "", gates.StatusPass, "no transcript to check"},
		{"missing transcript", filepath.Join(dir, "nope.jsonl"), gates.StatusPass, "does not exist"},
		{"no list", writeTranscript(t, userPrompt), gates.StatusPass, "no todo list in the transcript"},
		{"complete", writeTranscript(t, todoWrite(allDone)), gates.StatusPass, "all 2 todo items are completed"},
		{"incomplete", writeTranscript(t, todoWrite(twoOpen)), gates.StatusFail, "2 of 3 todo items not completed: Add tests; Update the README"},
		{"a symlink is refused", link, gates.StatusError, "not a regular file"},
		{"a device is refused", os.DevNull, gates.StatusError, "not a regular file"},
		{"a directory is refused", dir, gates.StatusError, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := Check(context.Background(), tt.path)
			if j.Status != tt.wantStatus || !strings.Contains(j.Reason, tt.wantReason) {
				t.Errorf("got %s %q, want %s with %q", j.Status, j.Reason, tt.wantStatus, tt.wantReason)
			}
		})
	}

	j := Check(context.Background(), writeTranscript(t, todoWrite(twoOpen)))
	for _, want := range []string{"not completed (in_progress): Add tests", "not completed (pending): Update the README"} {
		if !strings.Contains(strings.Join(j.Lines, "\n"), want) {
			t.Errorf("lines %q lack %q", j.Lines, want)
		}
	}
}

func TestCheckNamesAtMostAFewItemsInTheReason(t *testing.T) {
	var todos []string
	for i := range 8 {
		todos = append(todos, fmt.Sprintf(`{"content":"item %d","status":"pending","activeForm":"x"}`, i))
	}
	j := Check(context.Background(), writeTranscript(t, todoWrite("["+strings.Join(todos, ",")+"]")))
	if !strings.HasSuffix(j.Reason, "item 4; and 3 more") || strings.Contains(j.Reason, "item 5") || len(j.Lines) != 9 {
		t.Errorf("reason %q, %d lines", j.Reason, len(j.Lines))
	}
}

func TestReadTranscriptReadsOnlyTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A list, then enough filler to push it out of the window that is read.
	fmt.Fprintln(f, todoWrite(twoOpen))
	filler := `{"type":"user","message":{"content":"` + strings.Repeat("f", 1<<20) + `"}}` + "\n"
	for written := 0; written < MaxTranscriptBytes+(1<<20); written += len(filler) {
		f.WriteString(filler)
	}
	f.Close()
	if list, err := ReadTranscript(context.Background(), path); err != nil || list.Found {
		t.Errorf("list %+v, err %v: a list before the window was read", list, err)
	}

	// A list at the end is found, whatever the cut line at the window's start.
	f, err = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, todoWrite(twoOpen))
	f.Close()
	if list, err := ReadTranscript(context.Background(), path); err != nil || len(list.Pending()) != 2 {
		t.Errorf("list %+v, err %v: want the list at the end", list, err)
	}
}
