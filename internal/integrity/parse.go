package integrity

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
	"go.yaml.in/yaml/v3"
)

// The configuration rules compare parsed trees, never text, so that reformatting a file is no
// finding and a key moved within it still is. A tree is map[string]any, []any and scalars.

type format int

const (
	formatYAML format = iota
	formatJSON        // JSON with comments and trailing commas too (tsconfig, VS Code style)
	formatTOML
	formatINI
)

// parse reads data as f; nil data (the file does not exist) is an empty tree.
func parse(f format, data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	if read, ok := parsers()[f]; ok {
		return read(data)
	}
	return map[string]any{}, nil
}

// parsers read a config file's text, by its format, into a tree.
var parsers = sync.OnceValue(func() map[format]func([]byte) (map[string]any, error) {
	return map[format]func([]byte) (map[string]any, error){
		formatYAML: parseYAML,
		formatJSON: parseJSON,
		formatTOML: parseTOML,
		formatINI:  func(data []byte) (map[string]any, error) { return parseINI(data), nil },
	}
})

func parseYAML(data []byte) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	m, ok := normalizeTree(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a mapping")
	}
	return m, nil
}

func parseJSON(data []byte) (map[string]any, error) {
	std, err := hujson.Standardize(slices.Clone(data))
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(std, &v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	return m, nil
}

func parseTOML(data []byte) (map[string]any, error) {
	out := map[string]any{}
	if err := toml.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return normalizeTree(out).(map[string]any), nil
}

// normalizeTree turns YAML's and TOML's value types into JSON's: string keys, float64 numbers,
// []any lists.
func normalizeTree(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalizeTree(e)
		}
		return v
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[fmt.Sprint(k)] = normalizeTree(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeTree(e)
		}
		return out
	case []any:
		for i, e := range v {
			v[i] = normalizeTree(e)
		}
		return v
	}
	return asFloat(v)
}

// asFloat is an integer as JSON's number; any other value as it is.
func asFloat(v any) any {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case uint64:
		return float64(n)
	}
	return v
}

// parseINI reads setup.cfg, tox.ini, mypy.ini, .flake8, .pylintrc and .coveragerc: sections of
// key = value (or key: value), values continued on indented lines, ; and # comments. Section
// and key names are lower-cased, as the tools read them.
func parseINI(data []byte) map[string]any {
	r := iniReader{out: map[string]any{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		r.line(strings.TrimRight(sc.Text(), "\r"))
	}
	return r.out
}

// iniReader is parseINI's state: the sections so far, the one being read, its last key.
type iniReader struct {
	out, section map[string]any
	key          string
}

func (r *iniReader) line(raw string) {
	line := strings.TrimSpace(raw)
	switch {
	case line == "" || strings.IndexByte("#;", line[0]) >= 0:
	case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
		r.section = map[string]any{}
		r.out[strings.ToLower(strings.TrimSpace(line[1:len(line)-1]))] = r.section
		r.key = ""
	case r.section == nil:
	case r.key != "" && strings.IndexByte(" \t", raw[0]) >= 0:
		r.section[r.key] = r.section[r.key].(string) + "\n" + stripINIComment(line)
	default:
		r.setting(line)
	}
}

// setting reads a key = value (or key: value) line; one without either is skipped.
func (r *iniReader) setting(line string) {
	i := strings.IndexAny(line, "=:")
	if i < 0 {
		return
	}
	r.key = strings.ToLower(strings.TrimSpace(line[:i]))
	r.section[r.key] = stripINIComment(strings.TrimSpace(line[i+1:]))
}

func stripINIComment(s string) string {
	for _, sep := range []string{" #", " ;", "\t#", "\t;"} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// get walks a tree by keys; a key "*" is not special.
func get(tree any, keys ...string) (any, bool) {
	v := tree
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func getMap(tree any, keys ...string) map[string]any {
	v, _ := get(tree, keys...)
	m, _ := v.(map[string]any)
	return m
}

// canonical is a value's JSON with sorted keys: equal values, however written, compare equal.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// items is a value as a set of entries: a list's items, a map's "key: value" pairs, or a string
// split on commas, whitespace and newlines (INI and CLI style lists).
func items(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		return listItems(v)
	case map[string]any:
		return mapItems(v)
	case string:
		return strings.FieldsFunc(v, isListSeparator)
	default:
		return []string{canonical(v)}
	}
}

func isListSeparator(r rune) bool {
	return r == ',' || r == '\n' || r == ' ' || r == '\t'
}

// listItems are a list's entries: strings as they are, other values as JSON.
func listItems(v []any) []string {
	out := make([]string, 0, len(v))
	for _, e := range v {
		if s, ok := e.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, canonical(e))
		}
	}
	return out
}

// mapItems are a map's "key: entry" pairs, one per entry of each value (the value as JSON when
// it has none), sorted.
func mapItems(v map[string]any) []string {
	var out []string
	for k, e := range v {
		for _, it := range items(e) {
			out = append(out, k+": "+it)
		}
		if len(items(e)) == 0 {
			out = append(out, k+": "+canonical(e))
		}
	}
	slices.Sort(out)
	return out
}

// grown lists the entries of next that prev does not have.
func grown(prev, next any) []string {
	have := map[string]bool{}
	for _, s := range items(prev) {
		have[s] = true
	}
	var out []string
	for _, s := range items(next) {
		if !have[s] {
			out = append(out, s)
			have[s] = true
		}
	}
	return out
}

// truthy reads a config boolean: true, "true", "True", "yes", "on", "1".
func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "yes", "on", "1":
			return true
		}
	case float64:
		return v != 0
	}
	return false
}

// number reads a numeric config value, from a number or a numeric string ("80", "80%").
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
		return f, err == nil
	}
	return 0, false
}

// lineOf finds where a key path is written in a file, for pointing at it: each key looked for
// after the line of the one before, written as a key (`key:`, `"key":`, `key =`, `[key]`).
// 0 when it cannot be found (the key is gone).
func lineOf(data []byte, keys ...string) int {
	if len(data) == 0 {
		return 0
	}
	lines := strings.Split(string(data), "\n")
	from, found := 0, 0
	for _, k := range keys {
		re := keyPattern(k)
		hit := -1
		for i := from; i < len(lines); i++ {
			if re.MatchString(lines[i]) {
				hit = i
				break
			}
		}
		if hit < 0 {
			return found
		}
		found, from = hit+1, hit+1
	}
	return found
}

func keyPattern(k string) *regexp.Regexp {
	q := regexp.QuoteMeta(k)
	return regexp.MustCompile(`(?:^|[\s{,.\[])["']?` + q + `["']?\s*(?:[:=\].]|$)|^\s*-\s*["']?` + q + `["']?\s*$`)
}
