package config

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// maxConfigBytes bounds what is read into memory; real configs are a few kilobytes.
const maxConfigBytes = 1 << 20

// parseFile reads one config file into its raw form. A nil result means the file is not a
// usable mapping at all, so nothing from it may be merged or validated further. A local
// override may be empty and may leave out version.
func parseFile(file string, data []byte, local bool) (*rawFile, []Problem) {
	d := &decoder{file: file}
	start := pos{file: file, line: 1, col: 1}
	if len(data) > maxConfigBytes {
		return nil, []Problem{start.problem("config file is larger than 1 MiB")}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, []Problem{syntaxProblem(file, data, err)}
	}
	if errors.Is(err, io.EOF) || len(doc.Content) == 0 || isNull(doc.Content[0]) {
		if local {
			return &rawFile{}, nil
		}
		return nil, []Problem{start.problem(`config file is empty; it needs at least "version: 1"`)}
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		d.report(root, "the config must be a mapping of keys such as version and gates, got %s", describe(root))
		return nil, d.problems
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.problems = append(d.problems, syntaxProblem(file, data, err))
	default:
		d.report(&next, "a config file holds one YAML document; remove the extra one")
	}
	raw := &rawFile{}
	d.decodeStruct(root, reflect.ValueOf(raw).Elem(), "")
	d.checkVersion(raw, local)
	return raw, d.problems
}

func (d *decoder) checkVersion(raw *rawFile, local bool) {
	if !raw.has("version") {
		if !local {
			d.problems = append(d.problems, pos{file: d.file, line: 1, col: 1}.problem(`missing required key "version" (add "version: 1")`))
		}
		return
	}
	if raw.Version != nil && *raw.Version != 1 {
		d.problems = append(d.problems, raw.at["version"].value.problem(`"version" must be 1, got `+strconv.Itoa(*raw.Version)))
	}
}

// MaxFileBytes is the largest config file gauntlet reads: what a caller reading a config from
// elsewhere (git, for the config at a commit) bounds its read by.
const MaxFileBytes = maxConfigBytes
