package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// githubPrinter prints GitHub Actions workflow commands.
type githubPrinter struct{}

func (githubPrinter) Print(w io.Writer, r Report) error { return WriteGitHub(w, r) }

// WriteGitHub writes GitHub Actions workflow commands for every gate a reader must look at: its
// output folded in a group, once, then annotations: each finding on its file and line, within
// GitHub's limit per step (the rest are counted here and listed in the step summary), and a
// gate-level error (or, for warn, warning) for a gate without findings.
func WriteGitHub(w io.Writer, r Report) error {
	var b strings.Builder
	for _, g := range r.shown() {
		writeGateNotices(&b, g)
		if needsAttention(g.Status) {
			writeGateGroup(&b, g)
		}
	}
	for _, f := range r.Integrity {
		writeIntegrityAnnotation(&b, f)
	}
	plan := planAnnotations(r.shown())
	for _, a := range plan.chosen {
		a.write(&b)
	}
	for _, g := range r.shown() {
		if n := plan.omitted[g.Name]; n > 0 {
			fmt.Fprintf(&b, "gauntlet: %s: %d more findings not annotated (GitHub shows %d errors and %d warnings per step); see the step summary or `gauntlet explain %s`\n",
				g.Name, n, maxAnnotationsPerLevel, maxAnnotationsPerLevel, g.Name)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write github report: %w", err)
	}
	return nil
}

// writeGateNotices writes the notices of a gate that passed from the cache or was not run.
func writeGateNotices(b *strings.Builder, g GateReport) {
	if g.Cached {
		fmt.Fprintf(b, "::notice title=%s::%s\n", escapeProperty("gauntlet: "+g.label()), escapeData("cached pass: "+termtext.Line(g.Reason)))
	}
	if g.SkippedBecause != "" {
		// Not judged at all: said where it is seen, so that nobody takes its absence for a pass.
		fmt.Fprintf(b, "::notice title=%s::%s\n", escapeProperty("gauntlet: "+g.label()), escapeData("not run: "+termtext.Line(g.Reason)))
	}
}

// writeGateGroup writes the output of a gate that needs attention, folded in a group.
func writeGateGroup(b *strings.Builder, g GateReport) {
	fmt.Fprintf(b, "::group::%s\n", escapeData(fmt.Sprintf("gauntlet: %s (%s)", g.label(), g.Status)))
	writeInert(b, g)
	if hint := termtext.Line(g.Hint); hint != "" && len(g.Findings) > 0 {
		// Its findings are annotated instead of the gate: the hint would be lost with it.
		fmt.Fprintf(b, "hint: %s\n", hint)
	}
	fmt.Fprintf(b, "rerun: %s\n", g.rerun())
	if g.Log != "" {
		fmt.Fprintf(b, "log: %s\n", termtext.Line(g.Log))
	}
	b.WriteString("::endgroup::\n")
}

// writeIntegrityAnnotation writes an integrity finding as an annotation on its file.
func writeIntegrityAnnotation(b *strings.Builder, f gates.IntegrityFinding) {
	kind := "warning"
	if f.Level == gates.IntegrityBlock {
		kind = "error"
	}
	props := "file=" + escapeProperty(termtext.Line(f.File))
	if f.Line > 0 {
		props += ",line=" + fmt.Sprint(f.Line)
	}
	fmt.Fprintf(b, "::%s %s,title=%s::%s\n", kind, props, escapeProperty("gauntlet integrity: "+f.Rule), escapeData(termtext.Line(f.Message)))
}

// writeInert writes the gate's tail with workflow commands switched off around it: a line of gate
// output starting with "::" would otherwise be obeyed (masking secrets, closing our group, setting
// outputs). The resume token is derived from the tail itself, so the tail cannot contain it and
// the output stays reproducible.
func writeInert(b *strings.Builder, g GateReport) {
	tail := strings.TrimRight(termtext.Clean(g.Tail), "\n")
	if strings.TrimSpace(tail) == "" {
		b.WriteString("(no output)\n")
		return
	}
	sum := sha256.Sum256([]byte(g.Name + "\x00" + tail))
	token := "gauntlet-" + hex.EncodeToString(sum[:16])
	fmt.Fprintf(b, "::stop-commands::%s\n%s\n::%s::\n", token, tail, token)
}

// escapeData and escapeProperty follow @actions/core: a message may not contain a raw % or line
// break, and a property value additionally not the : and , that delimit properties.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
