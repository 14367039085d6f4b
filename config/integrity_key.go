package config

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// integrityKey is the top-level `integrity`: one level for every rule
// (`integrity: warn`), or a default and levels per rule:
//
//	integrity:
//	  default: block
//	  rules: {suppression-added: warn}
//
// Unset parts fall back to the context's default (block in the stop hook, warn in `run`).
type integrityKey struct {
	set    bool
	policy gates.IntegrityPolicy
}

var integrityLevels = []string{string(gates.IntegrityBlock), string(gates.IntegrityWarn), string(gates.IntegrityOff)}

func (k *integrityKey) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	switch {
	case isNull(n):
		return true
	case n.Kind == yaml.ScalarNode:
		l, ok := integrityLevel(d, n, s)
		if ok {
			*k = integrityKey{set: true, policy: gates.IntegrityPolicy{Default: l}}
		}
		return ok
	case n.Kind != yaml.MappingNode:
		d.report(n, "%s must be a level (block, warn, off) or a mapping of default and rules, got %s", s, describe(n))
		return false
	}
	p, ok := decodeIntegrityMapping(d, n)
	if ok {
		*k = integrityKey{set: true, policy: p}
	}
	return ok
}

// integrityLevel reads one level, reporting anything else.
func integrityLevel(d *decoder, n *yaml.Node, s subject) (gates.IntegrityLevel, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || !slices.Contains(integrityLevels, n.Value) {
		d.report(n, "%s must be one of block, warn, off, got %s%s", s, describe(n), suggestion(n.Value, integrityLevels))
		return "", false
	}
	return gates.IntegrityLevel(n.Value), true
}

// decodeIntegrityMapping reads the default and the rules' levels; ok is false when anything in
// it was reported.
func decodeIntegrityMapping(d *decoder, n *yaml.Node) (gates.IntegrityPolicy, bool) {
	p := gates.IntegrityPolicy{Rules: map[string]gates.IntegrityLevel{}}
	ok := true
	seen := map[string]bool{}
	for _, pr := range d.pairs(n) {
		name, named := d.keyName(pr.key)
		if !named {
			ok = false
			continue
		}
		if seen[name] {
			d.report(pr.key, "duplicate key %q in integrity", name)
			ok = false
			continue
		}
		seen[name] = true
		value := resolveAlias(pr.value)
		switch name {
		case "default":
			l, good := integrityLevel(d, value, subject{key: "default", section: "integrity"})
			p.Default, ok = l, ok && good
		case "rules":
			ok = decodeIntegrityRules(d, value, p.Rules) && ok
		default:
			d.report(pr.key, "unknown key %q in integrity%s", name, suggestion(name, []string{"default", "rules"}))
			ok = false
		}
	}
	return p, ok
}

// decodeIntegrityRules reads integrity.rules into levels; it reports whether all of it was good.
func decodeIntegrityRules(d *decoder, value *yaml.Node, levels map[string]gates.IntegrityLevel) bool {
	if isNull(value) {
		return true
	}
	if value.Kind != yaml.MappingNode {
		d.report(value, "\"rules\" in integrity must be a mapping of rule to level, got %s", describe(value))
		return false
	}
	ok := true
	for _, rp := range d.pairs(value) {
		rule, named := d.keyName(rp.key)
		if !named {
			ok = false
			continue
		}
		if !slices.Contains(gates.IntegrityRules, rule) {
			d.report(rp.key, "unknown integrity rule %q%s (rules: %s)", rule, suggestion(rule, gates.IntegrityRules), joinRules())
			ok = false
			continue
		}
		l, good := integrityLevel(d, resolveAlias(rp.value), subject{key: rule, section: "integrity.rules"})
		if good {
			levels[rule] = l
		}
		ok = ok && good
	}
	return ok
}

func joinRules() string {
	out := ""
	for i, r := range gates.IntegrityRules {
		if i > 0 {
			out += ", "
		}
		out += r
	}
	return out
}

// integritySchema describes the key for editors: a level, or default and rules.
func integritySchema() schema {
	level := schema{"enum": integrityLevels}
	rules := schema{}
	for _, r := range gates.IntegrityRules {
		rules[r] = level
	}
	return schema{
		"type": []string{"string", "object", "null"},
		"oneOf": []schema{
			{"type": "string", "enum": integrityLevels},
			{"type": "object", "additionalProperties": false, "properties": schema{
				"default": level,
				"rules":   schema{"type": []string{"object", "null"}, "additionalProperties": false, "properties": rules},
			}},
			{"type": "null"},
		},
	}
}
