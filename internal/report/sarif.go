package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// SARIF 2.1.0, the shape GitHub code scanning accepts (github/codeql-action/upload-sarif). Code
// scanning shows results on files: findings with a file are results, and a failing gate without
// one is a result on its line of the config.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// srcRoot is the base every relative path is resolved against; code scanning maps it to the
	// repository checkout.
	srcRoot = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifPrinter prints SARIF 2.1.0.
type sarifPrinter struct{}

func (sarifPrinter) Print(w io.Writer, r Report) error { return WriteSARIF(w, r) }

// WriteSARIF writes the findings of every gate as one SARIF run of the tool "gauntlet". A rule
// is the gate and the tool's rule ("lint/errcheck"), or the gate alone when the tool named none.
func WriteSARIF(w io.Writer, r Report) error {
	b := &sarifBuilder{run: sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "gauntlet", InformationURI: "https://github.com/gauntlet-dev/gauntlet", Rules: []sarifRule{}}},
		Results: []sarifResult{},
	}, ruleIndex: map[string]int{}}
	for _, g := range r.Gates {
		if b.addFindings(g) == 0 {
			b.addGateResult(g)
		}
	}
	for _, s := range r.Setup {
		s.setup = true
		b.addGateResult(s)
	}
	for _, f := range r.Integrity {
		b.addIntegrity(f)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{b.run}}); err != nil {
		return fmt.Errorf("write sarif report: %w", err)
	}
	return nil
}

// sarifBuilder collects the run's results and the rules they name, each rule once.
type sarifBuilder struct {
	run       sarifRun
	ruleIndex map[string]int
}

// rule is the index of rule id, added with the description desc() the first time it is named.
func (b *sarifBuilder) rule(id string, desc func() string) int {
	if idx, ok := b.ruleIndex[id]; ok {
		return idx
	}
	idx := len(b.run.Tool.Driver.Rules)
	b.ruleIndex[id] = idx
	b.run.Tool.Driver.Rules = append(b.run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: desc()}})
	return idx
}

// addFindings adds a result per finding of a gate that has a place in the project, and returns
// how many it added.
func (b *sarifBuilder) addFindings(g GateReport) int {
	placed := 0
	for _, f := range g.Findings {
		if f.File == "" || outsideRoot(f.File) {
			continue
		}
		placed++
		b.addFinding(g.Name, f)
	}
	return placed
}

// addFinding adds the result of a finding of gate: its rule is the gate and the tool's rule.
func (b *sarifBuilder) addFinding(gate string, f gates.Finding) {
	id := gate
	rule := termtext.Line(f.Rule)
	if rule != "" {
		id += "/" + rule
	}
	idx := b.rule(id, func() string { return findingRuleDescription(gate, f.Rule) })
	message := strings.TrimSpace(termtext.Clean(f.Message))
	if message == "" {
		message = id
	}
	b.run.Results = append(b.run.Results, sarifResult{
		RuleID:    id,
		RuleIndex: idx,
		Level:     sarifLevel(f.Severity),
		Message:   sarifMessage{Text: message},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifactOf(f.File),
			// A finding about a whole file (an unformatted file) is shown on its first line.
			Region: sarifRegion{StartLine: max(f.Line, 1), StartColumn: f.Column},
		}}},
	})
}

func findingRuleDescription(gate, rule string) string {
	desc := fmt.Sprintf("Reported by gate %s", gate)
	if rule != "" {
		desc += " (" + termtext.Line(rule) + ")"
	}
	return desc
}

// addIntegrity adds the result of an integrity finding that has a place in the project.
func (b *sarifBuilder) addIntegrity(f gates.IntegrityFinding) {
	if f.File == "" || outsideRoot(f.File) {
		return
	}
	id := "integrity/" + f.Rule
	idx := b.rule(id, func() string { return gates.IntegrityRuleSummary[f.Rule] })
	level := "warning"
	if f.Level == gates.IntegrityBlock {
		level = "error"
	}
	b.run.Results = append(b.run.Results, sarifResult{
		RuleID: id, RuleIndex: idx, Level: level, Message: sarifMessage{Text: termtext.Line(f.Message)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifactOf(f.File),
			Region:           sarifRegion{StartLine: max(f.Line, 1)},
		}}},
	})
}

// addGateResult gives a gate that needs attention and has no finding to show one result of its
// own, on the line of the config that defines it: otherwise code scanning would show nothing of a
// failure whose output names no file (a crashed test binary, a build that timed out). A gate
// whose place is not known (a report of an older gauntlet) is left out, as before.
func (b *sarifBuilder) addGateResult(g GateReport) {
	if !needsAttention(g.Status) || g.Config == nil || g.Config.File == "" || outsideRoot(g.Config.File) {
		return
	}
	id := termtext.Line(g.Name)
	idx := b.rule(id, func() string { return "Reported by gate " + id })
	b.run.Results = append(b.run.Results, sarifResult{
		RuleID:    id,
		RuleIndex: idx,
		Level:     sarifGateLevel(g.Status),
		Message:   sarifMessage{Text: gateMessage(g)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifactOf(g.Config.File),
			Region:           sarifRegion{StartLine: max(g.Config.Line, 1)},
		}}},
	})
}

// sarifGateLevel is a gate's result level: a gate that could not run (error) is the environment's
// problem, not the code's, so it warns like a gate of severity warn.
func sarifGateLevel(s gates.Status) string {
	if s == gates.StatusFail {
		return "error"
	}
	return "warning"
}

// gateMessage says what happened and where to read more: "gate test failed: exit status 1".
func gateMessage(g GateReport) string {
	what := map[gates.Status]string{
		gates.StatusFail:  "failed",
		gates.StatusWarn:  "failed (severity warn)",
		gates.StatusError: "could not run",
	}[g.Status]
	msg := "gate " + termtext.Line(g.label()) + " " + what
	if reason := termtext.Line(g.Reason); reason != "" && reason != string(g.Status) {
		msg += ": " + reason
	}
	if hint := termtext.Line(g.Hint); hint != "" {
		msg += ". " + hint
	}
	msg += " (rerun: " + g.rerun()
	if g.Log != "" {
		msg += "; log: " + termtext.Line(g.Log)
	}
	return msg + ")"
}

func sarifLevel(severity string) string {
	switch severity {
	case "error":
		return "error"
	case "warning":
		return "warning"
	default:
		return "note"
	}
}

// outsideRoot says whether a relative report path climbs out of the project ("../x.go"): code
// scanning would resolve it against the checkout, onto another file or none. A run writes such
// paths absolute; one still relative (a report from elsewhere) cannot be placed and is left out.
func outsideRoot(file string) bool {
	file = termtext.Line(file)
	if path.IsAbs(file) {
		return false
	}
	clean := path.Clean(file)
	return clean == ".." || strings.HasPrefix(clean, "../")
}

// sarifArtifactOf makes a URI of a report path: relative to %SRCROOT% for a path in the
// project, a file: URI for one outside it; each segment escaped.
func sarifArtifactOf(file string) sarifArtifact {
	file = termtext.Line(file)
	segments := strings.Split(strings.TrimPrefix(file, "/"), "/")
	for i, s := range segments {
		// PathEscape keeps ':'; in a relative reference's first segment it would read as a
		// scheme (c:foo.go), making the URI absolute and its uriBaseId wrong.
		segments[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	escaped := strings.Join(segments, "/")
	if path.IsAbs(file) {
		return sarifArtifact{URI: "file:///" + escaped}
	}
	return sarifArtifact{URI: escaped, URIBaseID: srcRoot}
}
