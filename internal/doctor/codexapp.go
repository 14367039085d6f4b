package doctor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/git"
)

// codexHook is one hook as codex app-server's hooks/list reports it.
type codexHook struct {
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	Enabled     bool   `json:"enabled"`
	TrustStatus string `json:"trustStatus"` // managed | untrusted | trusted | modified
	SourcePath  string `json:"sourcePath"`
}

// codexAppTimeout bounds the whole exchange: Codex answers hooks/list in well under a second.
const codexAppTimeout = 15 * time.Second

// maxCodexReplyBytes bounds one line of Codex's answer; a hook list is kilobytes.
const maxCodexReplyBytes = 4 << 20

// codexHooksList asks a running `codex app-server` (JSON-RPC over stdio, one object a line) for
// the hooks it would run in root, as Codex itself judges their trust. The server is started for
// this question alone and stopped as soon as it has answered or the deadline passes.
func codexHooksList(ctx context.Context, prog, root string) ([]codexHook, error) {
	ctx, cancel := context.WithTimeout(ctx, codexAppTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "app-server")
	cmd.Dir = root
	cmd.Stderr = &git.CappedBuffer{Limit: 4 << 10, Truncate: true}
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		_ = stdin.Close() // end of input ends the server
		cancel()
		_ = cmd.Wait()
	}()
	requests := []any{
		map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize",
			"params": map[string]any{"clientInfo": map[string]any{"name": "gauntlet-doctor", "version": "1"}}},
		map[string]any{"jsonrpc": "2.0", "method": "initialized"},
		map[string]any{"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{root}}},
	}
	enc := json.NewEncoder(stdin)
	for _, r := range requests {
		if err := enc.Encode(r); err != nil {
			return nil, fmt.Errorf("write to codex app-server: %w", err)
		}
	}
	return readHooksList(stdout)
}

// readHooksList reads the server's lines until the answer to request 2.
func readHooksList(r io.Reader) ([]codexHook, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxCodexReplyBytes)
	for sc.Scan() {
		var msg struct {
			ID     *int `json:"id"`
			Result *struct {
				Data []struct {
					Hooks  []codexHook `json:"hooks"`
					Errors []struct {
						Message string `json:"message"`
					} `json:"errors"`
				} `json:"data"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != 2 {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("hooks/list: %s", msg.Error.Message)
		}
		if msg.Result == nil {
			return nil, errors.New("hooks/list: no result")
		}
		var out []codexHook
		for _, d := range msg.Result.Data {
			out = append(out, d.Hooks...)
		}
		return out, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("no answer to hooks/list")
}
