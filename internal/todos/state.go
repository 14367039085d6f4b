package todos

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Where the latest list came from.
const (
	sourceTodoWrite = "TodoWrite"
	sourceTasks     = "task tools"
	sourcePlan      = "update_plan"
)

// state follows the todo lists through a transcript. The TodoWrite (or update_plan) list and
// the task list are kept apart; the one touched last is the answer.
type state struct {
	latest     string
	todoList   []Item
	tasks      []task
	created    int               // TaskCreate calls seen: the fallback id of the next task
	awaitingID map[string]string // TaskCreate tool_use id -> the provisional id of its task
}

type task struct {
	id string
	Item
}

func (s *state) list() List {
	switch s.latest {
	case "":
		return List{}
	case sourceTasks:
		items := make([]Item, len(s.tasks))
		for i, t := range s.tasks {
			items[i] = t.Item
		}
		return List{Found: true, Items: items}
	default:
		return List{Found: true, Items: slices.Clone(s.todoList)}
	}
}

func (s *state) apply(l *transcriptLine) {
	if l.Attachment.Type == "task_reminder" {
		s.snapshot(l.Attachment.Content)
	}
	if l.Payload.Type == "function_call" && l.Payload.Name == "update_plan" {
		s.plan(l.Payload.Arguments)
	}
	var blocks []contentBlock
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		switch {
		case b.Type == "tool_use" && b.Name == "TodoWrite":
			s.todoWrite(b.Input)
		case b.Type == "tool_use" && b.Name == "TaskCreate":
			s.taskCreate(b.ID, b.Input)
		case b.Type == "tool_use" && b.Name == "TaskUpdate":
			s.taskUpdate(b.Input)
		case b.Type == "tool_result" && b.ToolUseID != "":
			s.taskCreated(b.ToolUseID, l.ToolUseResult)
		}
	}
}

func (s *state) todoWrite(input json.RawMessage) {
	var in struct {
		Todos []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"todos"`
	}
	if json.Unmarshal(input, &in) != nil {
		return
	}
	s.todoList = s.todoList[:0]
	for _, t := range in.Todos {
		s.todoList = append(s.todoList, Item{Content: t.Content, Status: t.Status})
	}
	s.latest = sourceTodoWrite
}

func (s *state) plan(arguments string) {
	var in struct {
		Plan []struct {
			Step   string `json:"step"`
			Status string `json:"status"`
		} `json:"plan"`
	}
	if json.Unmarshal([]byte(arguments), &in) != nil {
		return
	}
	s.todoList = s.todoList[:0]
	for _, p := range in.Plan {
		s.todoList = append(s.todoList, Item{Content: p.Step, Status: p.Status})
	}
	s.latest = sourcePlan
}

func (s *state) snapshot(entries []taskEntry) {
	s.tasks = s.tasks[:0]
	for _, e := range entries {
		if e.Status == "deleted" {
			continue
		}
		s.tasks = append(s.tasks, task{id: string(e.ID), Item: Item{Content: e.Subject, Status: e.Status}})
	}
	s.latest = sourceTasks
}

func (s *state) taskCreate(toolUseID string, input json.RawMessage) {
	var in struct {
		Subject string `json:"subject"`
	}
	if json.Unmarshal(input, &in) != nil {
		return
	}
	s.created++
	id := strconv.Itoa(s.created)
	s.tasks = append(s.tasks, task{id: id, Item: Item{Content: in.Subject, Status: "pending"}})
	if toolUseID != "" {
		if s.awaitingID == nil {
			s.awaitingID = map[string]string{}
		}
		s.awaitingID[toolUseID] = id
	}
	s.latest = sourceTasks
}

// taskCreated gives a created task the id its tool result reports (toolUseResult.task.id).
func (s *state) taskCreated(toolUseID string, result json.RawMessage) {
	provisional, ok := s.awaitingID[toolUseID]
	if !ok {
		return
	}
	delete(s.awaitingID, toolUseID)
	var r struct {
		Task struct {
			ID flexID `json:"id"`
		} `json:"task"`
	}
	if json.Unmarshal(result, &r) != nil || r.Task.ID == "" {
		return
	}
	if i := s.find(provisional); i >= 0 {
		s.tasks[i].id = string(r.Task.ID)
	}
}

func (s *state) taskUpdate(input json.RawMessage) {
	var in struct {
		TaskID  flexID `json:"taskId"`
		Status  string `json:"status"`
		Subject string `json:"subject"`
	}
	if json.Unmarshal(input, &in) != nil || in.TaskID == "" {
		return
	}
	id := string(in.TaskID)
	i := s.find(id)
	if in.Status == "deleted" {
		if i >= 0 {
			s.tasks = slices.Delete(s.tasks, i, i+1)
		}
		s.latest = sourceTasks
		return
	}
	if i < 0 {
		// Created before the part of the transcript that was read.
		s.tasks = append(s.tasks, task{id: id, Item: Item{Content: "task #" + id, Status: "pending"}})
		i = len(s.tasks) - 1
	}
	if in.Status != "" {
		s.tasks[i].Status = in.Status
	}
	if in.Subject != "" {
		s.tasks[i].Content = in.Subject
	}
	s.latest = sourceTasks
}

func (s *state) find(id string) int {
	return slices.IndexFunc(s.tasks, func(t task) bool { return t.id == id })
}
