package hookfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/gauntlet-dev/gauntlet/internal/hosts"
)

// unmarshal decodes a hook file: JSON, or for a host that reads JSON with comments and trailing
// commas (Gemini CLI's settings), that too, as the host would.
func unmarshal(h hosts.Host, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil || !h.Hook.JSONC {
		if err != nil {
			return fmt.Errorf("not a JSON object: %w", err)
		}
		return nil
	}
	std, serr := Standardize(data)
	if serr != nil {
		return fmt.Errorf("not a JSON object: %w", serr)
	}
	if err := json.Unmarshal(std, v); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	return nil
}

// Standardize turns JSON with comments and trailing commas into plain JSON, leaving data as it
// was (hujson works in place).
func Standardize(data []byte) ([]byte, error) {
	return hujson.Standardize(bytes.Clone(data))
}

// planJSONC adds entry to a file with comments by patching its syntax tree: the comments, the
// order and the layout of everything else stay as the user wrote them.
func planJSONC(c *Change, data []byte, spec hosts.Host, entry *object, command string) (*Change, error) {
	tree, err := hujson.Parse(data)
	if err != nil {
		return nil, &InvalidFileError{Path: c.Rel, Reason: "not valid JSON with comments (" + err.Error() + ")"}
	}
	c.Exists = true
	std, err := Standardize(data)
	if err != nil {
		return nil, &InvalidFileError{Path: c.Rel, Reason: "not valid JSON with comments (" + err.Error() + ")"}
	}
	v, err := decodeJSON(std)
	if err != nil {
		return nil, &InvalidFileError{Path: c.Rel, Reason: "not valid JSON (" + err.Error() + ")"}
	}
	doc, ok := v.(*object)
	if !ok {
		return nil, &InvalidFileError{Path: c.Rel, Reason: "not a JSON object"}
	}
	// The same checks as for plain JSON, on a copy: the shapes must be where the host keeps them.
	added, err := addEntry(doc, spec.StopEvent, entry, command)
	if err != nil {
		return nil, &InvalidFileError{Path: c.Rel, Reason: err.Error()}
	}
	if !added {
		c.Installed = true
		c.Content = data
		return c, nil
	}
	var op map[string]any
	event := "/hooks/" + pointerEscape(spec.StopEvent)
	switch {
	case tree.Find("/hooks") == nil:
		op = map[string]any{"op": "add", "path": "/hooks", "value": newObject().set(spec.StopEvent, []any{entry})}
	case tree.Find(event) == nil:
		op = map[string]any{"op": "add", "path": event, "value": []any{entry}}
	default:
		op = map[string]any{"op": "add", "path": event + "/-", "value": entry}
	}
	var patch bytes.Buffer
	enc := json.NewEncoder(&patch)
	enc.SetEscapeHTML(false) // a command's && stays as written
	if err := enc.Encode([]any{op}); err != nil {
		return nil, fmt.Errorf("encode patch for %s: %w", c.Rel, err)
	}
	if err := tree.Patch(patch.Bytes()); err != nil {
		return nil, &InvalidFileError{Path: c.Rel, Reason: err.Error()}
	}
	c.Content = tree.Pack()
	if !bytes.HasSuffix(c.Content, []byte("\n")) {
		c.Content = append(c.Content, '\n')
	}
	return c, nil
}

// pointerEscape escapes a key for a JSON Pointer (RFC 6901).
func pointerEscape(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
