package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// The JUnit elements, in the subset every CI test reporter reads.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut *junitText    `xml:"system-out"`
}

// junitText is element content written as CDATA, so that output reads as it was printed
// instead of as a wall of character references.
type junitText struct {
	Body string `xml:",cdata"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

const junitName = "gauntlet"

// junitPrinter prints JUnit XML.
type junitPrinter struct{}

func (junitPrinter) Print(w io.Writer, r Report) error { return WriteJUnit(w, r) }

// addGate adds a gate's test case to the suite, counted by its status.
func (suite *junitSuite) addGate(g GateReport) {
	c := junitCase{ClassName: junitName, Name: xmlText(g.label()), Time: seconds(g.DurationMS)}
	reason := xmlText(termtext.Line(g.Reason))
	switch g.Status {
	case gates.StatusFail:
		c.Failure = &junitProblem{Message: reason, Type: string(g.Status), Body: xmlText(g.Tail)}
		suite.Failures++
	case gates.StatusError:
		c.Error = &junitProblem{Message: reason, Type: string(g.Status), Body: xmlText(g.Tail)}
		suite.Errors++
	case gates.StatusSkipped, gates.StatusCancelled:
		c.Skipped = &junitSkipped{Message: string(g.Status)}
		if reason := shownReason(g); reason != "" {
			c.Skipped.Message += ": " + xmlText(reason)
		}
		suite.Skipped++
	}
	if out := junitSystemOut(g, reason); len(out) > 0 {
		c.SystemOut = &junitText{Body: strings.Join(out, "\n") + "\n"}
	}
	suite.Cases = append(suite.Cases, c)
	suite.Tests++
}

// junitSystemOut is the lines of a gate's system-out: a warning gate's note and output, the
// cache's note, the log of a gate that did not pass.
func junitSystemOut(g GateReport, reason string) []string {
	var out []string
	if g.Status == gates.StatusWarn {
		out = append(out, fmt.Sprintf("warning: %s (severity warn: does not fail the run)", reason))
		if tail := strings.TrimRight(xmlText(g.Tail), "\n"); tail != "" {
			out = append(out, tail)
		}
	}
	if g.Cached {
		out = append(out, cachedNote(reason))
	}
	if g.Log != "" && g.Status != gates.StatusPass {
		out = append(out, "log: "+xmlText(g.Log))
	}
	return out
}

// integritySuite is the suite of the integrity findings, one case per finding: a blocking one
// fails, a warning passes with a note, as a warn gate does.
func integritySuite(r Report) junitSuite {
	is := junitSuite{Name: junitName + " integrity", Time: "0", Timestamp: r.StartedAt}
	for _, f := range r.Integrity {
		c := junitCase{ClassName: junitName + ".integrity", Name: xmlText(f.Rule + " " + IntegrityPlace(f)), Time: "0"}
		msg := xmlText(termtext.Line(f.Message))
		if f.Level == gates.IntegrityBlock {
			c.Failure = &junitProblem{Message: msg, Type: "integrity", Body: xmlText(IntegrityHeading + ": " + msg)}
			is.Failures++
		} else {
			c.SystemOut = &junitText{Body: "warning: " + msg + "\n"}
		}
		is.Cases = append(is.Cases, c)
		is.Tests++
	}
	return is
}

// WriteJUnit writes the report as JUnit XML: one suite, one test case per gate. A warning gate
// passes (the run does not fail on it) but carries its output and a note in system-out.
func WriteJUnit(w io.Writer, r Report) error {
	suite := junitSuite{
		Name:      junitName,
		Time:      seconds(r.DurationMS),
		Timestamp: r.StartedAt,
	}
	for _, g := range r.shown() {
		suite.addGate(g)
	}
	doc := junitSuites{
		Name: junitName, Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite},
	}
	if len(r.Integrity) > 0 {
		is := integritySuite(r)
		doc.Suites = append(doc.Suites, is)
		doc.Tests += is.Tests
		doc.Failures += is.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	return nil
}

// cachedNote says a pass came from the cache. The engine's reason already begins with "cached:"
// ("cached: passed in run …"); a reason from elsewhere (a report read back) gets the word added.
func cachedNote(reason string) string {
	switch {
	case reason == "":
		return "cached"
	case strings.HasPrefix(reason, "cached"):
		return reason
	default:
		return "cached: " + reason
	}
}

func seconds(ms int64) string {
	ms = max(ms, 0)
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}
