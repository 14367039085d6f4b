package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// The names' expressions, as the schema states them; loading checks names with validGateName and
// validEnvName, which a test holds to the same answers.
var (
	gateNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`) })
	envNamePattern  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

func (x *duration) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	const want = "a duration such as 90s or 10m"
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.report(n, "%s must be %s, got %s", s, want, describe(n))
		return false
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		d.report(n, "%s must be %s, got %s", s, want, describe(n))
		return false
	}
	if v <= 0 {
		d.report(n, "%s must be positive, got %s", s, describe(n))
		return false
	}
	*x = duration(v)
	return true
}

func (m *envMap) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	*m = envMap{}
	if isNull(n) {
		return true
	}
	if n.Kind != yaml.MappingNode {
		d.report(n, "%s must be a mapping of variable names to values, got %s", s, describe(n))
		return false
	}
	seen := make(map[string]*yaml.Node)
	for _, p := range d.pairs(n) {
		name, ok := d.keyName(p.key)
		if !ok {
			continue
		}
		if !p.merged {
			if first, dup := seen[name]; dup {
				d.report(p.key, "duplicate env variable %q%s (first at line %d)", name, s.in(), first.Line)
				continue
			}
			seen[name] = p.key
		}
		if !validEnvName(name) {
			d.report(p.key, "invalid env variable name %q%s: use letters, digits and _, not starting with a digit", name, s.in())
			continue
		}
		// Any scalar is taken as written, so that `GOMAXPROCS: 4` needs no quotes.
		value := resolveAlias(p.value)
		if value.Kind != yaml.ScalarNode || isNull(value) {
			d.report(value, "env variable %q%s must be a string, got %s", name, s.in(), describe(value))
			continue
		}
		*m = append(*m, envVar{Name: name, Value: value.Value})
	}
	return true
}

func (m *gateMap) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	*m = gateMap{}
	return d.decodeNamed(n, s, "gate", "gates", func(name string, body *yaml.Node, at pos, keep bool) {
		g := &rawGate{}
		if body != nil {
			d.decodeStruct(body, reflect.ValueOf(g).Elem(), fmt.Sprintf("gate %q", name))
		}
		if keep {
			*m = append(*m, namedGate{Name: name, Gate: g, at: at})
		}
	})
}

// decodeNamed walks a mapping of names to mappings of keys (gates, setup steps), reporting
// duplicate and ill-formed names. add gets each entry's body (nil when empty) and whether to keep
// it: the body of a duplicate is still decoded, so that its own mistakes are reported too. An
// entry whose body is no mapping is reported and left out, so that it is not also reported as
// lacking a command.
func (d *decoder) decodeNamed(n *yaml.Node, s subject, noun, plural string, add func(name string, body *yaml.Node, at pos, keep bool)) bool {
	if isNull(n) {
		return true
	}
	if n.Kind != yaml.MappingNode {
		d.report(n, "%s must be a mapping of %s names to %s, got %s", s, noun, plural, describe(n))
		return false
	}
	seen := make(map[string]*yaml.Node)
	for _, p := range d.pairs(n) {
		name, ok := d.keyName(p.key)
		if !ok {
			continue
		}
		duplicate := false
		if !p.merged {
			if first, dup := seen[name]; dup {
				d.report(p.key, "duplicate %s %q (first at line %d)", noun, name, first.Line)
				duplicate = true
			} else {
				seen[name] = p.key
			}
		}
		if !validGateName(name) {
			d.report(p.key, "invalid %s name %q: use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit", noun, name)
		}
		body := resolveAlias(p.value)
		switch {
		case isNull(body):
			body = nil
		case body.Kind == yaml.MappingNode:
		default:
			d.report(body, "%s %q must be a mapping of its keys (run, argv, timeout, ...), got %s", noun, name, describe(body))
			continue
		}
		add(name, body, d.pos(resolveAlias(p.key)), !duplicate)
	}
	return true
}
