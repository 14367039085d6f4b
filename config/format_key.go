package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/internal/findings"
)

// formatKey is a gate's `format`: one string (a built-in parser name, "none", or one
// errorformat line) or a list of errorformat lines. It is checked by compiling it, so that a
// typo in a parser name or an errorformat fails at load time rather than silently reading nothing.
type formatKey []string

func (f *formatKey) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	const want = "a parser name (go, eslint, pytest, ...), none, or errorformat lines"
	var lines []string
	switch {
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		lines = []string{n.Value}
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0:
		for _, item := range n.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" {
				d.report(item, "%s must be %s, got %s", s, want, describe(item))
				return false
			}
			lines = append(lines, item.Value)
		}
	default:
		d.report(n, "%s must be %s, got %s", s, want, describe(n))
		return false
	}
	if _, err := findings.Parse(lines); err != nil {
		d.report(n, "%s: %v", s, err)
		return false
	}
	*f = lines
	return true
}
