package config

import "go.yaml.in/yaml/v3"

// pair is one key of a mapping. merged marks keys brought in by a `<<: *anchor` merge key:
// YAML lets explicit keys override them, so they are never duplicates.
type pair struct {
	key    *yaml.Node
	value  *yaml.Node
	merged bool
}

// maxMergeDepth bounds merge-key expansion, which is the only place the walk follows aliases
// into mappings: an anchor that merges itself would otherwise never end.
const maxMergeDepth = 8

// pairs lists a mapping's keys in file order, with merged keys in place of their `<<` key.
func (d *decoder) pairs(n *yaml.Node) []pair {
	return d.pairsAt(n, 0)
}

func (d *decoder) pairsAt(n *yaml.Node, depth int) []pair {
	explicit := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !isMergeKey(k) {
			explicit[resolveAlias(k).Value] = true
		}
	}
	var out []pair
	merged := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			out = append(out, pair{key: k, value: v})
			continue
		}
		for _, p := range d.mergeSources(k, v, depth) {
			name := resolveAlias(p.key).Value
			// The first source of a key wins, as the YAML merge-key spec says.
			if explicit[name] || merged[name] {
				continue
			}
			merged[name] = true
			p.merged = true
			out = append(out, p)
		}
	}
	return out
}

func (d *decoder) mergeSources(k, v *yaml.Node, depth int) []pair {
	if depth >= maxMergeDepth {
		d.report(k, "merge key << nests more than %d levels deep (does an anchor merge itself?)", maxMergeDepth)
		return nil
	}
	v = resolveAlias(v)
	switch v.Kind {
	case yaml.MappingNode:
		return d.pairsAt(v, depth+1)
	case yaml.SequenceNode:
		var out []pair
		for _, item := range v.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.MappingNode {
				d.report(item, "merge key << needs a mapping or a list of mappings, got %s", describe(item))
				continue
			}
			out = append(out, d.pairsAt(item, depth+1)...)
		}
		return out
	default:
		d.report(v, "merge key << needs a mapping or a list of mappings, got %s", describe(v))
		return nil
	}
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}
