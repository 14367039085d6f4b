// Package fakemodel is a model server for driving the agent hosts' real CLIs in tests, on
// 127.0.0.1 only: every request is answered at once with a short final text, so that the agent
// ends its turn and the host runs its stop hook. It speaks as much of Anthropic's Messages API
// (Claude Code), OpenAI's Responses API (Codex, and Copilot CLI as a bring-your-own-key provider)
// Gemini's generateContent (Gemini CLI) and OpenAI's chat completions (Qwen Code) as those CLIs
// need to run a turn.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server answers model requests; Requests counts the turns it served.
type Server struct {
	URL string
	// Writes, when set, makes the model answer request N (counted from 1) by asking the host to
	// write a file (Claude Code's Write tool) instead of ending its turn: the agent doing work
	// between two stops.
	Writes map[int64]Write
	// Calls, when set, makes the model answer request N of the Responses API (Codex, Copilot CLI)
	// by calling one of the host's tools (Codex's exec_command, Copilot's bash).
	Calls map[int64]Call
	// ToolUses, when set, makes the model answer request N of the Messages API (Claude Code) by
	// calling one of its tools (Read, Grep, Bash, ...).
	ToolUses map[int64]Call
	// GeminiCalls, when set, makes the model answer streamed request N of generateContent
	// (Gemini CLI's turns; its routing and checks are not streamed) with a function call
	// (read_file, grep_search, run_shell_command, ...).
	GeminiCalls map[int64]Call
	// ChatCalls, when set, makes the model answer request N of OpenAI's chat completions (Qwen
	// Code) by calling one of the host's tools (write_file, edit, run_shell_command, ...).
	ChatCalls map[int64]Call
	// GeminiStatus, when set, answers every generateContent request with this HTTP status and
	// Google's error body (429: a quota exceeded).
	GeminiStatus int
	// Answer, when set, is the final text of every turn instead of "Done (turn N).".
	Answer   string
	requests atomic.Int64
	streams  atomic.Int64 // Gemini CLI's streamed requests
	srv      *http.Server
	ln       net.Listener

	mu     sync.Mutex
	seen   []string // method and path of every request, for debugging a host's traffic
	bodies []string // every request body, for checking what a host sent the model
}

// Start listens on a free port of 127.0.0.1 (never another address).
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Write is a file the model asks the host to write.
type Write struct {
	Path, Content string // Path absolute, as Claude Code's Write tool wants it
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Requests is how many model turns were answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Seen lists the requests received, "POST /v1/messages".
func (s *Server) Seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// Bodies returns every request body received, in order.
func (s *Server) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// text is the final answer of turn n.
func (s *Server) text(n int64) string {
	if s.Answer != "" {
		return s.Answer
	}
	return fmt.Sprintf("Done (turn %d).", n)
}

// maxBody bounds what a request may send: a host's prompt with its tools is well below it.
const maxBody = 16 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	s.mu.Lock()
	s.bodies = append(s.bodies, string(body))
	s.mu.Unlock()
	var req struct {
		Stream bool   `json:"stream"`
		Model  string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	switch {
	case strings.HasSuffix(r.URL.Path, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
	case strings.HasSuffix(r.URL.Path, "/messages"):
		n := s.requests.Add(1)
		if wr, ok := s.Writes[n]; ok {
			s.anthropicToolUse(w, req.Model, req.Stream, Call{Name: "Write", Args: map[string]any{"file_path": wr.Path, "content": wr.Content}})
			return
		}
		if call, ok := s.ToolUses[n]; ok {
			s.anthropicToolUse(w, req.Model, req.Stream, call)
			return
		}
		s.anthropic(w, req.Model, req.Stream, s.text(n))
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chatCompletions(w, req.Model, req.Stream)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		n := s.requests.Add(1)
		if call, ok := s.Calls[n]; ok {
			s.openAICall(w, req.Model, call)
			return
		}
		s.openAIResponses(w, req.Model, s.text(n))
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
	case strings.HasSuffix(r.URL.Path, ":streamGenerateContent"), strings.HasSuffix(r.URL.Path, ":generateContent"):
		n := s.requests.Add(1)
		stream := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
		if s.GeminiStatus != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(s.GeminiStatus)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": s.GeminiStatus,
				"message": "Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com'.",
				"status":  "RESOURCE_EXHAUSTED"}})
			return
		}
		var turn int64
		if stream {
			turn = s.streams.Add(1)
		}
		if call, ok := s.GeminiCalls[turn]; ok && stream {
			s.geminiPart(w, stream, map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.Args}})
			return
		}
		s.geminiPart(w, stream, map[string]any{"text": s.text(n)})
	case strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"data": []any{}, "models": []any{}})
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// anthropic answers a Messages request with one text block that ends the turn.
func (s *Server) anthropic(w http.ResponseWriter, model string, stream bool, text string) {
	if model == "" {
		model = "claude-fake"
	}
	id := fmt.Sprintf("msg_fake_%d", s.requests.Load())
	usage := map[string]any{"input_tokens": 100, "output_tokens": 5}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn",
			"stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message",
		"role": "assistant", "model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "text_delta", "text": text}})
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// openAIResponses answers a Responses request (always streamed by Codex) with one message.
func (s *Server) openAIResponses(w http.ResponseWriter, model, text string) {
	if model == "" {
		model = "gpt-fake"
	}
	n := s.requests.Load()
	respID, itemID := fmt.Sprintf("resp_fake_%d", n), fmt.Sprintf("msg_fake_%d", n)
	item := map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	resp := func(status string, output []any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "status": status, "model": model, "output": output,
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 5, "total_tokens": 105,
				"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "response.created", map[string]any{"type": "response.created", "response": resp("in_progress", []any{})})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}})
	sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": itemID,
		"output_index": 0, "content_index": 0, "delta": text})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp("completed", []any{item})})
}

// Call is a tool call the model makes: the tool's name and its arguments.
type Call struct {
	Name string
	Args map[string]any
	// Input, when set, makes a Responses API call a custom (freeform) tool call with this input
	// instead of a function call: Codex's apply_patch for the models whose apply_patch is
	// freeform.
	Input string
}

// openAICall answers a Responses request with one function call.
func (s *Server) openAICall(w http.ResponseWriter, model string, call Call) {
	if model == "" {
		model = "gpt-fake"
	}
	n := s.requests.Load()
	respID := fmt.Sprintf("resp_fake_%d", n)
	args, _ := json.Marshal(call.Args)
	item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake_%d", n), "call_id": fmt.Sprintf("call_fake_%d", n),
		"name": call.Name, "arguments": string(args), "status": "completed"}
	if call.Input != "" {
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_fake_%d", n), "call_id": fmt.Sprintf("call_fake_%d", n),
			"name": call.Name, "input": call.Input, "status": "completed"}
	}
	resp := func(status string, output []any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "status": status, "model": model, "output": output,
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 5, "total_tokens": 105,
				"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "response.created", map[string]any{"type": "response.created", "response": resp("in_progress", []any{})})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp("completed", []any{item})})
}

// anthropicToolUse answers with one tool_use block asking for one of Claude Code's tools.
func (s *Server) anthropicToolUse(w http.ResponseWriter, model string, stream bool, call Call) {
	if model == "" {
		model = "claude-fake"
	}
	n := s.requests.Load()
	id, toolID := fmt.Sprintf("msg_fake_%d", n), fmt.Sprintf("toolu_fake_%d", n)
	input := call.Args
	usage := map[string]any{"input_tokens": 100, "output_tokens": 5}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content":     []any{map[string]any{"type": "tool_use", "id": toolID, "name": call.Name, "input": input}},
			"stop_reason": "tool_use", "stop_sequence": nil, "usage": usage})
		return
	}
	partial, _ := json.Marshal(input)
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message",
		"role": "assistant", "model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "tool_use", "id": toolID, "name": call.Name, "input": map[string]any{}}})
	sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(partial)}})
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// geminiPart answers a generateContent request (Gemini CLI's, streamed as SSE or not) with one
// part: a text that ends the turn, or a function call.
func (s *Server) geminiPart(w http.ResponseWriter, stream bool, part map[string]any) {
	chunk := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 5, "totalTokenCount": 105},
		"modelVersion":  "gemini-fake",
	}
	if !stream {
		writeJSON(w, chunk)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", chunk)
}
