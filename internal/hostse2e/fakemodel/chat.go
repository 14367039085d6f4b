package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// chatCompletions answers an OpenAI chat-completions request (Qwen Code, and any host pointed at
// an OpenAI-compatible endpoint): request n is answered with ChatCalls[n] as a tool call when
// set, else with the turn's final text; streamed as SSE when the request asks for it.
func (s *Server) chatCompletions(w http.ResponseWriter, model string, stream bool) {
	n := s.requests.Add(1)
	if model == "" {
		model = "gpt-fake"
	}
	msg := map[string]any{"role": "assistant", "content": s.text(n)}
	finish := "stop"
	if call, ok := s.ChatCalls[n]; ok {
		args, _ := json.Marshal(call.Args)
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_fake_%d", n), "type": "function",
			"function": map[string]any{"name": call.Name, "arguments": string(args)}}}}
		finish = "tool_calls"
	}
	id := fmt.Sprintf("chatcmpl-fake-%d", n)
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) map[string]any {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		return c
	}
	sse(w, "", chunk(msg, nil, nil))
	sse(w, "", chunk(map[string]any{}, finish, usage))
	fmt.Fprint(w, "data: [DONE]\n\n")
}
