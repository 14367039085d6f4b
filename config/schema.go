package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// SchemaDraft is the JSON Schema dialect of JSONSchema's output.
const SchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// SchemaID is where the committed gauntlet.schema.json is published, for editors to point at.
const SchemaID = "https://raw.githubusercontent.com/gauntlet-dev/gauntlet/main/gauntlet.schema.json"

// schemaAtTag is SchemaID at a release tag.
const schemaAtTag = "https://raw.githubusercontent.com/gauntlet-dev/gauntlet/%s/gauntlet.schema.json"

// isRelease reports whether version is a release's number (1.2.3, or v1.2.3 as its tag spells
// it), not a pre-release, snapshot or pseudo-version.
func isRelease(version string) bool {
	parts := strings.Split(strings.TrimPrefix(version, "v"), ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// SchemaURL is the schema a config written by gauntlet version v points editors at: the
// committed gauntlet.schema.json at that release's tag, which knows exactly the keys that build
// knows and never changes under the file; a build that is no release (dev, a snapshot, a
// pseudo-version) points at main.
func SchemaURL(version string) string {
	if !isRelease(version) {
		return SchemaID
	}
	return fmt.Sprintf(schemaAtTag, "v"+strings.TrimPrefix(version, "v"))
}

// SchemaLine is the first line of a config that gauntlet writes: the YAML language server (VS
// Code's YAML extension, JetBrains IDEs, Helix, Neovim) validates and completes the file from
// the schema it names.
func SchemaLine(version string) string {
	return "# yaml-language-server: $schema=" + SchemaURL(version) + "\n"
}

// JSONSchema returns the JSON Schema of .gauntlet.yml, for editors. It is generated from the raw
// types and their tags, the same ones the loader reads, so that the two cannot disagree on which
// keys exist or what their values look like. Rules the schema cannot express (a regexp or glob
// that does not compile, a dir escaping the root through a symlink) are left to the loader, which
// checks them.
func JSONSchema() ([]byte, error) {
	s, err := buildSchema()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // descriptions quote commands with < > &
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode config schema: %w", err)
	}
	return buf.Bytes(), nil
}

type schema = map[string]any

// Where a key lives, as prefixes of schemaDocs.
const (
	topSection      = ""
	stopHookSection = "stop_hook."
	gateSection     = "gates.*."
	setupSection    = "setup.*."
)

func buildSchema() (schema, error) {
	top, err := objectSchema(reflect.TypeFor[rawFile](), topSection)
	if err != nil {
		return nil, err
	}
	gate, err := objectSchema(reflect.TypeFor[rawGate](), gateSection)
	if err != nil {
		return nil, err
	}
	gate["description"] = "A gate: a check (a command), a review (an AI reviewer) or a todos gate."
	gate["allOf"] = kindRules()
	setup, err := objectSchema(reflect.TypeFor[rawSetup](), setupSection)
	if err != nil {
		return nil, err
	}
	setup["description"] = "A setup step: a command gates name in needs, run at most once per run and only for them."
	setup["oneOf"] = kindRequirements()["check"]["oneOf"]

	// The loader checks version apart from the tags: it is required and must be 1.
	top["properties"].(schema)["version"].(schema)["const"] = 1
	top["required"] = []string{"version"}

	top["$schema"] = SchemaDraft
	top["$id"] = SchemaID
	top["title"] = "gauntlet config (.gauntlet.yml)"
	top["description"] = "The quality gates of a repository and how gauntlet runs them."
	top["$defs"] = schema{
		"gate":  gate,
		"setup": setup,
		"duration": schema{
			"type":        "string",
			"description": "A positive Go duration such as 90s, 10m or 1h30m.",
			"pattern":     durationPattern,
		},
		"env": schema{
			"type":          []string{"object", "null"},
			"description":   "Environment variables; any scalar value is taken as written.",
			"propertyNames": schema{"pattern": envNamePattern().String()},
			"additionalProperties": schema{
				"type": []string{"string", "number", "boolean"},
			},
		},
	}
	return top, nil
}

// durationPattern accepts what time.ParseDuration does, without a minus sign. "0s" still
// passes; the loader says it must be positive.
const durationPattern = `^\+?(([0-9]+\.?[0-9]*|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`

// objectSchema describes a raw struct: its yaml keys and nothing else.
func objectSchema(t reflect.Type, section string) (schema, error) {
	props := schema{}
	for _, f := range fieldsOf(t) {
		key := section + f.name
		s, err := valueSchema(t.Field(f.index).Type, f.tag, key)
		if err != nil {
			return nil, err
		}
		doc, ok := schemaDocs()[key]
		if !ok {
			return nil, fmt.Errorf("config schema: key %q has no description in schemaDocs", key)
		}
		s["description"] = doc
		props[f.name] = s
	}
	return schema{
		"type":                 "object",
		"additionalProperties": false,
		"properties":           props,
	}, nil
}

var (
	durationType = reflect.TypeFor[duration]()
	envMapType   = reflect.TypeFor[envMap]()
	rawCacheType = reflect.TypeFor[rawCache]()
	// firstFailureType is "wait" or a duration, 0s included.
	firstFailureType = reflect.TypeFor[firstFailure]()
	needListType     = reflect.TypeFor[needList]()
	setupMapType     = reflect.TypeFor[setupMap]()
	gateMapType      = reflect.TypeFor[gateMap]()
	// formatKeyType is a string or a list of strings.
	formatKeyType = reflect.TypeFor[formatKey]()
	// integrityKeyType is a level or a mapping of default and rules.
	integrityKeyType = reflect.TypeFor[integrityKey]()
)

// valueSchema maps one raw field type and its tags. A type it does not know is an error rather
// than a guess, so that a new kind of key cannot reach the schema undescribed.
func valueSchema(t reflect.Type, tag reflect.StructTag, key string) (schema, error) {
	if known, ok := typeSchemas()[t]; ok {
		return known(), nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return pointerSchema(t, tag, key)
	case reflect.Slice:
		return sliceSchema(t, tag, key)
	default:
		return nonemptyScalarSchema(t, tag, key)
	}
}

// typeSchemas describe the raw types that decode themselves: their schema is theirs, not their
// Go kind's.
var typeSchemas = sync.OnceValue(func() map[reflect.Type]func() schema {
	return map[reflect.Type]func() schema{
		durationType: func() schema { return ref("duration") },
		envMapType:   func() schema { return ref("env") },
		firstFailureType: func() schema {
			return schema{"type": "string", "pattern": `^(wait|` + durationPattern[1:len(durationPattern)-1] + `)$`}
		},
		formatKeyType: func() schema {
			// minLength applies to the string form only, minItems and items to the list form only.
			return schema{"type": []string{"string", "array"}, "minLength": 1, "minItems": 1, "items": schema{"type": "string"}}
		},
		needListType: func() schema {
			return schema{
				"type":  []string{"array", "null"},
				"items": schema{"type": "string", "pattern": gateNamePattern().String()},
			}
		},
		integrityKeyType: integritySchema,
		gateMapType:      func() schema { return namedMapSchema("gate") },
		setupMapType:     func() schema { return namedMapSchema("setup") },
	}
})

// namedMapSchema is a mapping of gate names to the definition named def.
func namedMapSchema(def string) schema {
	return schema{
		"type":                 []string{"object", "null"},
		"propertyNames":        schema{"pattern": gateNamePattern().String()},
		"additionalProperties": ref(def),
	}
}

// pointerSchema describes an optional value: a section (a pointer to a struct) may be left
// empty, any other pointer is its value's.
func pointerSchema(t reflect.Type, tag reflect.StructTag, key string) (schema, error) {
	if t.Elem().Kind() != reflect.Struct {
		return valueSchema(t.Elem(), tag, key)
	}
	obj, err := objectSchema(t.Elem(), strings.TrimSuffix(key, ".")+".")
	if err != nil {
		return nil, err
	}
	obj["type"] = []string{"object", "null"} // `stop_hook:` with nothing under it is fine
	if t.Elem() == rawCacheType {
		obj["type"] = []string{"object", "boolean", "null"} // `cache: true` is short for enabled
	}
	return obj, nil
}

func sliceSchema(t reflect.Type, tag reflect.StructTag, key string) (schema, error) {
	items, err := scalarSchema(t.Elem(), tag, key)
	if err != nil {
		return nil, err
	}
	s := schema{"type": []string{"array", "null"}, "items": items}
	// A nonempty list may not be null either: the loader reads null as the empty list.
	if tag.Get("nonempty") == "true" {
		s["type"] = "array"
		s["minItems"] = 1
	}
	return s, nil
}

// nonemptyScalarSchema is scalarSchema with the nonempty tag: it is about the value as a whole,
// so list items may be blank (an empty argv word).
func nonemptyScalarSchema(t reflect.Type, tag reflect.StructTag, key string) (schema, error) {
	s, err := scalarSchema(t, tag, key)
	if err != nil {
		return nil, err
	}
	if tag.Get("nonempty") == "true" {
		if _, taken := s["pattern"]; taken {
			return nil, fmt.Errorf("config schema: key %q is nonempty and has a format pattern; combine them with allOf", key)
		}
		s["pattern"] = `\S`
	}
	return s, nil
}

func scalarSchema(t reflect.Type, tag reflect.StructTag, key string) (schema, error) {
	switch t.Kind() {
	case reflect.String:
		s := schema{"type": "string"}
		if enum := tag.Get("enum"); enum != "" {
			s["enum"] = strings.Split(enum, ",")
		}
		if format := tag.Get("format"); format != "" {
			rule, ok := formatSchemas()[format]
			if !ok {
				return nil, fmt.Errorf("config schema: key %q has format %q, which formatSchemas does not describe", key, format)
			}
			for k, v := range rule {
				s[k] = v
			}
		}
		return s, nil
	case reflect.Int, reflect.Int64:
		s := schema{"type": "integer"}
		if lo, ok := tagInt(tag, "min"); ok {
			s["minimum"] = lo
		}
		if hi, ok := tagInt(tag, "max"); ok {
			s["maximum"] = hi
		}
		return s, nil
	case reflect.Bool:
		return schema{"type": "boolean"}, nil
	}
	return nil, fmt.Errorf("config schema: key %q has type %s, which the schema generator does not know", key, t)
}

func ref(def string) schema { return schema{"$ref": "#/$defs/" + def} }

// formatSchemas is what the schema can say about each rule of formatRules.
var formatSchemas = sync.OnceValue(func() map[string]schema {
	return map[string]schema{
		"regexp": {"format": "regex"},
		// Not starting with "/" or "./": such globs never match a root-relative path.
		"glob": {"pattern": `^([^./]|\.([^/]|$)|$)`},
		// The same, and no ".." step out of the root.
		"relglob": {"pattern": `^([^./]|\.([^/]|$))`, "not": schema{"pattern": `(^|/)\.\.(/|$)`}},
		// Relative, and not obviously climbing out; the loader has the last word.
		"reldir":     {"pattern": `^([^/]|$)`, "not": schema{"pattern": `^\.\.(/|$)`}},
		"envname":    {"pattern": envNamePattern().String()},
		"httpurl":    {"pattern": `^https?://[^/?#]+`},
		"ed25519pub": {"pattern": publicKeyPattern},
	}
})

// kindRules are the rules that depend on a gate's kind: the keys tagged `only` for another kind
// are forbidden, and each kind's own requirements (validateGate) apply.
func kindRules() []schema {
	var rules []schema
	for _, kind := range gateKinds {
		cond := schema{"properties": schema{"kind": schema{"const": kind}}}
		// A gate without kind is a check, so only the other kinds need the key present.
		if kind != string(gates.KindCheck) {
			cond["required"] = []string{"kind"}
		}
		then := schema{}
		forbidden := schema{}
		for _, f := range fieldsOf(reflect.TypeFor[rawGate]()) {
			if only := f.tag.Get("only"); only != "" && only != kind {
				forbidden[f.name] = false
			}
		}
		if len(forbidden) > 0 {
			then["properties"] = forbidden
		}
		for k, v := range kindRequirements()[kind] {
			then[k] = v
		}
		rules = append(rules, schema{"if": cond, "then": then})
	}
	return rules
}

// kindRequirements mirror validateGate's cross-key rules.
var kindRequirements = sync.OnceValue(func() map[string]schema {
	return map[string]schema{
		"check": {"oneOf": []schema{{"required": []string{"run"}}, {"required": []string{"argv"}}}},
		"review": {
			"required": []string{"cli"},
			"not":      schema{"required": []string{"prompt", "prompt_file"}},
		},
	}
})

// schemaDocs describe every key for editors' hover text; the generator refuses a key without one.
var schemaDocs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"version":                  "Config format version. Required; 1 is the only version.",
		"jobs":                     "How many gates run at once. Default: the number of CPUs.",
		"timeout":                  "Per-gate timeout for gates that set none. Default: 10m.",
		"fail_fast":                "On the first failing gate, cancel the others; they report cancelled. Default: false.",
		"base":                     "Base ref for change scoping (paths/exclude). Default: auto (origin/HEAD, main, master).",
		"keep_runs":                "How many runs' logs to keep under .gauntlet/logs. Default: 10.",
		"change_coverage_min":      "The percent (0-100) of the lines the change adds or edits, in files a covered gate's tests exercise, that the tests must run; below it, the change-uncovered integrity finding names the lines no test runs, as diff-cover's --fail-under. Default: 0, every run of such lines is named.",
		"env":                      "Environment added to every gate; a gate's own env wins. Default: none.",
		"stop_hook":                "How `gauntlet stop-hook` answers an agent host that asks whether the agent may stop.",
		"gates":                    "The gates, by name (lowercase letters, digits, - and _), reported in file order.",
		"cache":                    "Answer a gate's pass from the cache while its inputs are unchanged; the default of every gate's cache. true or false, or a mapping with enabled and remote. Default: false.",
		"cache.enabled":            "The default of every gate's cache. Default: false.",
		"cache.remote":             "A remote cache shared between machines over the HTTP protocol of existing cache servers (GET and PUT under /ac/): bazel-remote, nginx with WebDAV, S3-compatible gateways. Needs url and public_keys. Read-only unless write is true.",
		"cache.remote.url":         "The server's base URL; entries live under URL/ac/KEY.",
		"cache.remote.write":       "Store passes on the server too, signed with the private key in $GAUNTLET_CACHE_SIGNING_KEY (meant for CI; without the key nothing is stored, and the run says so). Only in .gauntlet.yml, never in .gauntlet.local.yml; the stop hook never writes. Default: false.",
		"cache.remote.public_keys": "The public keys (ed25519:BASE64, as `gauntlet cache keygen` prints them) an entry's signature is checked with: an entry none of them verifies is a miss. More than one while a key is replaced; a key a change adds is trusted once it is merged. Only in .gauntlet.yml. Required.",
		"cache.remote.token_env":   "An environment variable holding a bearer token sent to the server. Default: none.",
		"cache.remote.timeout":     "The most the remote cache may cost a run, all its calls together; past it the gates just run. Default: 2s.",
		"redact":                   "Which variables' values are hidden from every text gauntlet composes, beside the built-in rule (names with TOKEN, KEY, SECRET, PASSWORD, ...).",

		"redact.names":  "Variables whose values are always hidden (except values under 6 bytes, numbers and flag words such as true). Default: none.",
		"redact.exempt": "Variables never hidden, even when the built-in rule would. Default: none.",
		"integrity":     "What findings of changes that weaken the gates (tests removed or skipped, suppressions added, checks relaxed, the hook removed) do: block, warn or off, for every rule or as default and rules. Default: block in the stop hook, warn in run; a change cannot lower the level its base sets.",
		"causes":        "Apply the built-in catalogue of environment-failure signatures to every check gate: a failing gate whose output matches one is an error naming the cause and its fix. Default: true.",

		"stop_hook.max_attempts":      "Blocks per session (and prompt) before the agent may stop anyway. Default: 3.",
		"stop_hook.timeout":           "Deadline of the whole stop hook; gates still running then count as timed out. Default: 9m.",
		"stop_hook.first_failure":     "Once a required gate fails, how long the stop hook waits for the other gates before it replies and stops them (the agent's fix changes the code, so their results would be stale); passes already finished stay cached. \"wait\" runs every gate to its end. Default: 5s.",
		"stop_hook.lock_wait":         "How long to wait for another run's lock before judging the stop without it. Default: 30s.",
		"stop_hook.subagents":         "Also gate SubagentStop events. Default: false.",
		"stop_hook.speculative":       "After each edit of the agent, start a background judge of the tree (debounced by quiet_period) whose verdict the stop hook joins. Needs the after-edit hook that init installs. Default: true.",
		"stop_hook.quiet_period":      "How long the tree must stay unchanged after an edit before the background judge starts. Default: 1s.",
		"stop_hook.autofix":           "Before blocking, run the fixers of the failed gates that have one and name every file they changed in the reason. Default: false (the agent sees what changes).",
		"stop_hook.reason_limit":      "Most characters of a block's reason (1000 to 8000): every failing test is named first, one line each, then as much detail as fits; the rest is in the gate's log, whose path the reason gives. Default: 4000.",
		"stop_hook.honor_active_flag": "Allow the stop at once whenever the host says stop_hook_active. Default: false.",
		"stop_hook.pre_existing":      "Whether a failure the session's base already has (the same test failing, the same finding, the gate failing the same way at the base in this environment) blocks an agent's stop: report (list it after the regressions; only what the change broke blocks) or block (every failure blocks, whatever the base). `gauntlet run` fails on every failure either way. Only .gauntlet.yml may set it. Default: report.",
		"stop_hook.pre_edit":          "What gauntlet pre-edit (the edit guard init installs) does with an edit or shell command the integrity rules find weakening the gates, before it runs: deny (refuse it, with the reason), warn (let it run with a warning) or off. The stop judges the whole change either way. Default: deny.",
		"stop_hook.local_overrides":   "What the stop hook does with what .gauntlet.local.yml changes of the gates: honour (apply it and name it), report (judge the gates as .gauntlet.yml defines them and name what was set aside) or ignore (judge as if there were no local file). Only .gauntlet.yml may set it. Default: report.",

		"gates.*.kind":             "check (default): run a command | review: an AI reviewer judges the diff | todos: the agent's todo list must be done.",
		"gates.*.run":              "Shell command, run with `sh -c`. Exactly one of run and argv for a check gate.",
		"gates.*.argv":             "The command as a list, run without a shell. Exactly one of run and argv for a check gate.",
		"gates.*.shell":            "The shell that runs `run`: sh, bash, cmd, pwsh or powershell. Default: sh (/bin/sh; on Windows Git for Windows' sh when installed, else cmd).",
		"gates.*.dir":              "Directory to run in, relative to the project root; it must stay inside. Default: the root.",
		"gates.*.env":              "Environment for this gate only, after the top-level env. Default: none.",
		"gates.*.timeout":          "This gate's timeout. Default: the top-level timeout.",
		"gates.*.paths":            "Run only when a changed file matches one of these doublestar globs (root-relative). Default: always run.",
		"gates.*.exclude":          "Changed files matching these globs do not count for paths. Default: none.",
		"gates.*.glob":             "Check gates whose command names {files}: only the files matching one of these globs too are given (a formatter for Go files in a gate whose paths also hold go.mod). Default: every file the paths give.",
		"gates.*.severity":         "error (default): a failure fails the run | warn: a failure only warns.",
		"gates.*.on_timeout":       "Outcome of a timeout: fail | error. Default: fail for checks and todos, error for reviews.",
		"gates.*.infra_exit_codes": "Exit codes that mean \"could not run\": the outcome is error. Default: [126, 127].",
		"gates.*.infra_patterns":   "Go regular expressions; an output line matching one turns a failure into error. Default: none.",
		"gates.*.hint":             "Advice shown with a failure, in reports and to agents. Default: none.",
		"gates.*.when":             "always (default) | local: only outside CI | ci: only when CI is set.",
		"gates.*.enabled":          "false keeps the gate defined but never run. Default: true.",
		"gates.*.cli":              "Review gates: claude | codex | gemini | a command that reads the prompt on stdin. Required.",
		"gates.*.prompt":           "Review gates: the review instructions, inline. At most one of prompt and prompt_file.",
		"gates.*.prompt_file":      "Review gates: the review instructions, from a file relative to the project root.",
		"gates.*.model":            "Review gates: model name passed to the CLI. Default: the CLI's own.",
		"gates.*.max_diff_bytes":   "Review gates: the diff is cut to this many bytes. Default: 262144.",
		"gates.*.cache":            "Answer this gate's pass from the cache while its inputs are unchanged. Default: the top-level cache.",
		"gates.*.inputs":           "Doublestar globs (root-relative) of the files the gate's result depends on, for the cache. Default: paths, else the whole tree.",
		"gates.*.session":          "The result depends on the agent's session (it reads GAUNTLET_TRANSCRIPT_PATH): never answered from another session. Default: false; always true for todos gates.",
		"gates.*.format":           "How findings are read from the output: a parser name (go, gotest, gofmt, eslint, tsc, vitest, jest, ava, ruff, mypy, pytest, pylint, rust, shellcheck, gcc, generic), none, or Vim errorformat lines. Default: detected from the command.",
		"gates.*.new_only":         "Findings the base of the change produces too (same file, rule, normalised message, line followed through the diff) do not fail the gate. Default: false.",
		"gates.*.writes":           "The gate is meant to change the worktree (it generates code); any other check gate that changes a file git sees fails, naming the files. Default: false.",
		"gates.*.speculative":      "Run this gate in the background judge started after the agent's edits; false waits for the stop (costly reviews). Default: true.",
		"gates.*.tests":            "Check gates: a root-relative path or doublestar glob of the JUnit XML reports the gate writes, from which its test census (each test's outcome) is read; the command runs as declared. Default: none, and gauntlet asks a test runner it recognises in the command (go test, pytest, node --test, vitest, jest, cargo test, gotestsum) for its census. `off` counts none of the gate's tests.",
		"gates.*.coverage":         "Check gates: compare the line coverage of the gate's tests with the base's, so that lines the change did not touch, covered at the base and not covered now, are a coverage-lost integrity finding. `auto` asks go test for a cover profile; otherwise a root-relative path or doublestar glob of the reports the gate writes (a Go cover profile, lcov, coverage.py's JSON); `off` measures none. Default: none.",
		"gates.*.causes":           "Check gates: apply the built-in catalogue of environment-failure signatures to this gate's output. Default: the top-level causes.",
		"setup":                    "Setup steps, by name (the names of gates and setup steps are one set): commands gates name in needs, such as an install or a code generator. A step runs at most once per run, only when a gate that runs needs it.",
		"setup.*.run":              "Shell command, run with `sh -c`. Exactly one of run and argv.",
		"setup.*.argv":             "The command as a list, run without a shell. Exactly one of run and argv.",
		"setup.*.dir":              "Directory to run in, relative to the project root; it must stay inside. Default: the root.",
		"setup.*.env":              "Environment for this step only, after the top-level env. Default: none.",
		"setup.*.timeout":          "This step's timeout. Default: the top-level timeout.",
		"setup.*.inputs":           "Doublestar globs (root-relative) of the files the step's result depends on (a lockfile, package.json), for the cache. Default: the whole tree.",
		"setup.*.cache":            "Skip the step while its inputs are unchanged since it last passed. Default: the top-level cache.",
		"setup.*.hint":             "Advice shown with a failure. Default: none.",
		"setup.*.infra_exit_codes": "Exit codes that mean \"could not run\": the outcome is error. Default: [126, 127].",
		"setup.*.infra_patterns":   "Go regular expressions; an output line matching one turns a failure into error. Default: none.",
		"setup.*.causes":           "Apply the built-in catalogue of environment-failure signatures (an unreachable registry is error with its cause). Default: the top-level causes.",
		"gates.*.fix":              "Check gates: the command (run with `sh -c`, in the gate's dir and env) that repairs what the gate finds, the writing form of the same tool (gofmt -w for gofmt -l, eslint --fix for eslint). `gauntlet fix` runs it and reruns the gate; a failed gate with a fix is told as `gauntlet fix NAME`. Default: none.",
		"gates.*.needs":            "Gates (and setup steps) that must pass or warn before this gate starts; if one fails or cannot run, this gate is skipped. A selected gate's needs run too. Default: none.",
	}
})
