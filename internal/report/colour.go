package report

import (
	"github.com/fatih/color"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// statusAttrs gives each status the colour a reader scans for; gates that did not run fade.
var statusAttrs = map[gates.Status][]color.Attribute{
	gates.StatusPass:      {color.FgGreen},
	gates.StatusFail:      {color.FgRed},
	gates.StatusWarn:      {color.FgYellow},
	gates.StatusError:     {color.FgMagenta},
	gates.StatusSkipped:   {color.Faint},
	gates.StatusCancelled: {color.Faint},
}

var verdictAttrs = map[gates.Verdict][]color.Attribute{
	gates.VerdictPass:  {color.FgGreen, color.Bold},
	gates.VerdictWarn:  {color.FgYellow, color.Bold},
	gates.VerdictFail:  {color.FgRed, color.Bold},
	gates.VerdictError: {color.FgMagenta, color.Bold},
}

// paint colours s only when on. Each call decides for itself instead of relying on the global
// color.NoColor, so that the caller's --color choice holds and tests are deterministic.
func paint(s string, on bool, attrs ...color.Attribute) string {
	if !on || len(attrs) == 0 {
		return s
	}
	c := color.New(attrs...)
	c.EnableColor()
	return c.Sprint(s)
}

// PaintStatus colours s as status is coloured everywhere (pass green, fail red, ...) when on:
// for the commands that print a status outside the run's own views.
func PaintStatus(s string, status gates.Status, on bool) string {
	return paint(s, on, statusAttrs[status]...)
}
