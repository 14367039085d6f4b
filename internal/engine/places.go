package engine

import (
	"path/filepath"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/report"
)

// placeGates says in the report where each gate and setup step is defined, relative to the
// project root, so that a failure without findings can be shown on its line of the config.
func placeGates(r *report.Report, cfg *config.Config) {
	place := func(g *report.GateReport) {
		p, ok := cfg.PlaceOf(g.Name)
		if !ok {
			return
		}
		file := p.File
		if rel, err := filepath.Rel(cfg.Root, p.File); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			file = rel
		}
		g.Config = &report.ConfigPlace{File: filepath.ToSlash(file), Line: p.Line}
	}
	for i := range r.Gates {
		place(&r.Gates[i])
	}
	for i := range r.Setup {
		place(&r.Setup[i])
	}
}
