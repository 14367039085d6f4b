package stophook

import (
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/session"
)

// sessionRoot is where the config search of a session's stop starts: the project root the
// session was pinned in, when dir is below it, else dir. A stop's directory is the agent's to
// choose (its cwd), and a .gauntlet.yml the change writes below the root (`cd web && printf ...
// >.gauntlet.yml`) would otherwise be found first and judge the stop alone; the session's root
// and its base's config judge, and the file below is part of the change. A session pinned below
// the root (a monorepo's package with a config of its own) is found at its own directory first.
func sessionRoot(dir, sessionKey string) string {
	if sessionKey == "" {
		return dir
	}
	start, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	found, err := config.Find(start)
	if err != nil {
		return dir
	}
	layout, err := git.FindLayout(start)
	if err != nil || filepath.Dir(found) == layout.TopLevel {
		return dir // nothing above the config found can be the session's root
	}
	if rec, _ := session.Load(filepath.Dir(found), sessionKey); rec != nil {
		return dir // the config found is the session's own
	}
	for d := filepath.Dir(filepath.Dir(found)); ; d = filepath.Dir(d) {
		if !isWithin(d, layout.TopLevel) {
			return dir
		}
		if rec, _ := session.Load(d, sessionKey); rec != nil {
			return d
		}
		if d == layout.TopLevel {
			return dir
		}
	}
}

// isWithin reports whether d is top or below it.
func isWithin(d, top string) bool {
	rel, err := filepath.Rel(top, d)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}
