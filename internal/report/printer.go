package report

import (
	"fmt"
	"io"
)

// Printer writes a report in one format. Each format is a file of its own (text.go, json.go,
// junit.go, github.go, sarif.go, html.go) with its printer; PrinterFor is the one place that knows them
// all, and WriteOutputs the one that sends them where they were asked for.
type Printer interface {
	Print(w io.Writer, r Report) error
}

// PrinterFor is the printer of format f; text only matters to the text format.
func PrinterFor(f Format, text TextOptions) (Printer, error) {
	switch f {
	case FormatText:
		return textPrinter{text}, nil
	case FormatJSON:
		return jsonPrinter{}, nil
	case FormatJUnit:
		return junitPrinter{}, nil
	case FormatGitHub:
		return githubPrinter{}, nil
	case FormatSARIF:
		return sarifPrinter{}, nil
	case FormatHTML:
		return htmlPrinter{}, nil
	default:
		return nil, fmt.Errorf("unknown format %q", f)
	}
}

// Write renders the report in the given format; opts only matter for text.
func Write(w io.Writer, f Format, r Report, opts TextOptions) error {
	p, err := PrinterFor(f, opts)
	if err != nil {
		return err
	}
	return p.Print(w, r)
}
