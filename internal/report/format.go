package report

import (
	"fmt"
	"strings"
)

// Format is a value of --format.
type Format string

const (
	FormatText   Format = "text"
	FormatJSON   Format = "json"
	FormatJUnit  Format = "junit"
	FormatGitHub Format = "github"
	FormatSARIF  Format = "sarif"
	FormatHTML   Format = "html"
)

// Formats lists every format, in the order help text shows them.
var Formats = []Format{FormatText, FormatJSON, FormatJUnit, FormatGitHub, FormatSARIF, FormatHTML}

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (want %s)", s, strings.Join(names, ", "))
}
