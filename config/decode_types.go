package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

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
		if !envNamePattern().MatchString(name) {
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
	if isNull(n) {
		return true
	}
	if n.Kind != yaml.MappingNode {
		d.report(n, "%s must be a mapping of gate names to gates, got %s", s, describe(n))
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
				d.report(p.key, "duplicate gate %q (first at line %d)", name, first.Line)
				duplicate = true
			} else {
				seen[name] = p.key
			}
		}
		if !gateNamePattern().MatchString(name) {
			d.report(p.key, "invalid gate name %q: use 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit", name)
		}
		// The body of a duplicate is still read, so that its own mistakes are reported too.
		g := &rawGate{}
		body := resolveAlias(p.value)
		switch {
		case isNull(body):
		case body.Kind == yaml.MappingNode:
			d.decodeStruct(body, reflect.ValueOf(g).Elem(), fmt.Sprintf("gate %q", name))
		default:
			d.report(body, "gate %q must be a mapping of its keys (run, argv, timeout, ...), got %s", name, describe(body))
			continue // kept out, so that it is not also reported as lacking a command
		}
		if !duplicate {
			*m = append(*m, namedGate{Name: name, Gate: g, at: d.pos(resolveAlias(p.key))})
		}
	}
	return true
}
