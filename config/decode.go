package config

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// decoder walks a yaml.Node tree into the raw structs. yaml.v3's own decoding stops at the first
// type error and gives no column, so the walk is done here, and every problem is recorded at the
// node it concerns.
type decoder struct {
	file     string
	problems []Problem
}

// nodeDecoder is implemented by raw types whose YAML shape is not a plain struct, list or scalar.
// It reports false when the node could not be turned into a value at all.
type nodeDecoder interface {
	decodeNode(d *decoder, n *yaml.Node, s subject) bool
}

func (d *decoder) pos(n *yaml.Node) pos {
	return pos{file: d.file, line: max(n.Line, 1), col: max(n.Column, 1)}
}

func (d *decoder) report(n *yaml.Node, format string, args ...any) {
	d.problems = append(d.problems, d.pos(n).problem(fmt.Sprintf(format, args...)))
}

// subject names a value in messages the way a user would look for it in the file.
type subject struct {
	key     string
	section string // "" at top level, "stop_hook", `gate "test"`
	item    int    // 1-based position in a list; 0 for the key's value itself
}

func (s subject) String() string {
	out := strconv.Quote(s.key)
	if s.item > 0 {
		out = fmt.Sprintf("item %d of %s", s.item, out)
	}
	return out + s.in()
}

func (s subject) in() string { return inSection(s.section) }

func (s subject) at(item int) subject {
	s.item = item
	return s
}

func inSection(section string) string {
	if section == "" {
		return ""
	}
	return " in " + section
}

// field is one YAML key of a raw struct.
type field struct {
	name  string
	index int
	tag   reflect.StructTag
}

// fieldsOf lists the YAML keys of a raw struct in declaration order, the order suggestions and
// merges go through.
func fieldsOf(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, field{name: name, index: i, tag: sf.Tag})
	}
	return out
}

func fieldNames(fields []field) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return names
}

// decodeStruct fills a raw struct from a mapping node; v must be addressable.
func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, section string) {
	fields := fieldsOf(v.Type())
	set := v.Addr().Interface().(positioned).self()
	seen := make(map[string]*yaml.Node)
	for _, p := range d.pairs(n) {
		name, ok := d.keyName(p.key)
		if !ok {
			continue
		}
		if !p.merged {
			if first, dup := seen[name]; dup {
				d.report(p.key, "duplicate key %q%s (first at line %d)", name, inSection(section), first.Line)
				continue
			}
			seen[name] = p.key
		}
		i := slices.IndexFunc(fields, func(f field) bool { return f.name == name })
		if why, ok := retiredKeys()[section+"."+name]; ok && i < 0 {
			d.report(p.key, "%s", why)
			continue
		}
		if i < 0 {
			d.report(p.key, "unknown key %q%s%s", name, inSection(section), suggestion(name, fieldNames(fields)))
			continue
		}
		f := fields[i]
		value := resolveAlias(p.value)
		d.decodeValue(value, v.Field(f.index), f.tag, subject{key: name, section: section})
		// Recorded even when the value was bad, so that the key does not also count as missing.
		set.set(name, fieldPos{key: d.pos(resolveAlias(p.key)), value: d.pos(value)})
	}
}

// retiredKeys are keys an older gauntlet read, by section and name: each is still an error (a
// config that sets one means something gauntlet no longer does), with what replaced it.
var retiredKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"remote.key_env": "cache.remote.key_env is no longer read: entries are signed with a private key only CI holds, and checked " +
			"with the public_keys listed here; see \"Moving from a shared secret\" in docs/cache.md",
	}
})

func (d *decoder) decodeValue(n *yaml.Node, v reflect.Value, tag reflect.StructTag, s subject) bool {
	if custom, ok := v.Addr().Interface().(nodeDecoder); ok {
		return custom.decodeNode(d, n, s)
	}
	switch v.Kind() {
	case reflect.Pointer:
		elem := reflect.New(v.Type().Elem())
		if !d.decodeValue(n, elem.Elem(), tag, s) {
			return false
		}
		v.Set(elem)
		return true
	case reflect.Struct:
		if isNull(n) {
			return true
		}
		if n.Kind != yaml.MappingNode {
			d.report(n, "%s must be a mapping, got %s", s, describe(n))
			return false
		}
		d.decodeStruct(n, v, s.key)
		return true
	case reflect.Slice:
		return d.decodeList(n, v, tag, s)
	default:
		return d.decodeScalar(n, v, tag, s)
	}
}

func (d *decoder) decodeList(n *yaml.Node, v reflect.Value, tag reflect.StructTag, s subject) bool {
	var items []*yaml.Node
	switch {
	case isNull(n):
	case n.Kind == yaml.SequenceNode:
		items = n.Content
	default:
		d.report(n, "%s must be %s, got %s", s, expectation(v.Type()), describe(n))
		return false
	}
	// Never nil once set: an explicit empty list (infra_exit_codes: []) differs from an absent one.
	out := reflect.MakeSlice(v.Type(), len(items), len(items))
	for i, item := range items {
		d.decodeValue(resolveAlias(item), out.Index(i), tag, s.at(i+1))
	}
	v.Set(out)
	if tag.Get("nonempty") == "true" && len(items) == 0 {
		d.report(n, "%s must not be empty", s)
	}
	return true
}

func (d *decoder) decodeScalar(n *yaml.Node, v reflect.Value, tag reflect.StructTag, s subject) bool {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		d.report(n, "%s must be %s, got %s", s, expectation(v.Type()), describe(n))
		return false
	}
	switch v.Kind() {
	case reflect.String:
		return d.decodeString(n, v, tag, s)
	case reflect.Int, reflect.Int64:
		return d.decodeInt(n, v, tag, s)
	case reflect.Bool:
		return d.decodeBool(n, v, s)
	default:
		d.report(n, "%s has a type the config reader does not support (%s)", s, v.Type())
		return false
	}
}

func (d *decoder) decodeString(n *yaml.Node, v reflect.Value, tag reflect.StructTag, s subject) bool {
	if n.ShortTag() != "!!str" {
		d.report(n, "%s must be a string, got %s (quote it to use it as text)", s, describe(n))
		return false
	}
	v.SetString(n.Value)
	d.checkString(n, n.Value, tag, s)
	return true
}

func (d *decoder) decodeInt(n *yaml.Node, v reflect.Value, tag reflect.StructTag, s subject) bool {
	var i int64
	tooLarge := n.ShortTag() == "!!float" && integerLiteral().MatchString(n.Value)
	if n.ShortTag() != "!!int" && !tooLarge {
		d.report(n, "%s must be an integer, got %s", s, describe(n))
		return false
	}
	// yaml resolves an integer too large for int64 as a float.
	if tooLarge || n.Decode(&i) != nil || v.OverflowInt(i) {
		d.report(n, "%s is out of range, got %s", s, describe(n))
		return false
	}
	v.SetInt(i)
	d.checkBounds(n, i, tag, s)
	return true
}

func (d *decoder) decodeBool(n *yaml.Node, v reflect.Value, s subject) bool {
	var b bool
	if n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
		d.report(n, "%s must be true or false, got %s", s, describe(n))
		return false
	}
	v.SetBool(b)
	return true
}

func (d *decoder) checkString(n *yaml.Node, value string, tag reflect.StructTag, s subject) {
	if s.item == 0 && tag.Get("nonempty") == "true" && strings.TrimSpace(value) == "" {
		d.report(n, "%s must not be empty", s)
		return
	}
	if enum := tag.Get("enum"); enum != "" {
		allowed := strings.Split(enum, ",")
		if !slices.Contains(allowed, value) {
			d.report(n, "%s must be one of %s, got %q%s", s, strings.Join(allowed, ", "), value, suggestion(value, allowed))
		}
	}
	if format := tag.Get("format"); format != "" {
		if msg := formatRules()[format](value); msg != "" {
			d.report(n, "%s %s", s, msg)
		}
	}
}

func (d *decoder) checkBounds(n *yaml.Node, i int64, tag reflect.StructTag, s subject) {
	lo, hasLo := tagInt(tag, "min")
	hi, hasHi := tagInt(tag, "max")
	switch {
	case hasLo && hasHi && (i < lo || i > hi):
		d.report(n, "%s must be between %d and %d, got %d", s, lo, hi, i)
	case hasLo && i < lo:
		d.report(n, "%s must be at least %d, got %d", s, lo, i)
	case hasHi && i > hi:
		d.report(n, "%s must be at most %d, got %d", s, hi, i)
	}
}

var integerLiteral = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9]+$`) })

func tagInt(tag reflect.StructTag, key string) (int64, bool) {
	raw, ok := tag.Lookup(key)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(raw, 10, 64)
	return i, err == nil
}

func (d *decoder) keyName(k *yaml.Node) (string, bool) {
	k = resolveAlias(k)
	if k.Kind != yaml.ScalarNode || isNull(k) {
		d.report(k, "keys must be strings, got %s", describe(k))
		return "", false
	}
	return k.Value, true
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// resolveAlias follows *anchor references; the walk itself never recurses through them except
// via merge keys, which are depth-limited, so a self-referencing anchor cannot loop.
func resolveAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// describe names what the user wrote, for "got ..." in messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!str":
			return strconv.Quote(shorten(n.Value))
		default:
			return shorten(n.Value)
		}
	default:
		return "a YAML document"
	}
}

func shorten(s string) string {
	const limit = 60
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + "..."
	}
	return s
}

func expectation(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct:
		return "a mapping"
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.String:
			return "a list of strings"
		case reflect.Int, reflect.Int64:
			return "a list of integers"
		}
	}
	return "a " + t.String()
}
