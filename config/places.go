package config

import "path/filepath"

// Place is where a gate or setup step is defined: the file (absolute) and the line of its name.
// Reports point at it when a gate fails without a finding of its own to show (SARIF).
type Place struct {
	File string
	Line int
}

// PlaceOf is where the gate or setup step name is defined; false when the config does not know
// (a config put together from others, as the stop hook's judging config may be).
func (c *Config) PlaceOf(name string) (Place, bool) {
	p, ok := c.places[name]
	return p, ok
}

// placesOf records where each gate and setup step was first defined. Positions carry the display
// form of their file's path; main and local map them back to the absolute paths.
func placesOf(raw *rawFile, main source, local *source) map[string]Place {
	files := map[string]string{main.shown: main.path}
	if local != nil {
		files[local.shown] = local.path
	}
	abs := func(display string) string {
		if f, ok := files[display]; ok {
			return f
		}
		return filepath.Clean(display)
	}
	places := make(map[string]Place, len(raw.Gates)+len(raw.Setup))
	for _, ng := range raw.Gates {
		places[ng.Name] = Place{File: abs(ng.at.file), Line: ng.at.line}
	}
	for _, ns := range raw.Setup {
		places[ns.Name] = Place{File: abs(ns.at.file), Line: ns.at.line}
	}
	return places
}
