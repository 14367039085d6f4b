package scaffold

import (
	"slices"
	"strconv"
	"strings"
)

// maxGateName is the longest gate name the config accepts (^[a-z0-9][a-z0-9_-]{0,63}$).
const maxGateName = 64

// Layout returns every project's gates ready for the config: a project in a sub-folder runs
// there (dir) and only when something under it changed (paths), and its gate names carry the
// folder's name ("web-lint"). A name that is still taken gets the project kind ("go-test"),
// then a number.
func Layout(projects []Project) []Gate {
	taken := map[string]bool{}
	var out []Gate
	for _, p := range projects {
		out = append(out, layoutProject(taken, p)...)
	}
	return out
}

// layoutProject names one project's gates uniquely among those taken, and puts a folder's
// gates in it.
func layoutProject(taken map[string]bool, p Project) []Gate {
	prefix := ""
	if p.Dir != "" {
		prefix = slug(p.Dir) + "-"
	}
	// A gate's needs name gates of its own project, which are renamed with it.
	renamed := map[string]string{}
	names := make([]string, len(p.Gates))
	for i, g := range p.Gates {
		names[i] = uniqueName(taken, prefix, slug(p.Kind), g.Name)
		if _, ok := renamed[g.Name]; !ok {
			renamed[g.Name] = names[i]
		}
	}
	out := make([]Gate, 0, len(p.Gates))
	for i, g := range p.Gates {
		g.Name = names[i]
		g.Needs = renamedNeeds(g.Needs, renamed)
		if p.Dir != "" {
			g.Dir = p.Dir
			if len(g.Paths) == 0 {
				g.Paths = []string{escapeGlob(p.Dir) + "/**"}
			}
		}
		out = append(out, g)
	}
	return out
}

// renamedNeeds is needs with the gates renamed by Layout under their new names.
func renamedNeeds(needs []string, renamed map[string]string) []string {
	out := slices.Clone(needs)
	for i, n := range out {
		if r, ok := renamed[n]; ok {
			out[i] = r
		}
	}
	return out
}

func uniqueName(taken map[string]bool, prefix, kind, name string) string {
	candidates := []string{prefix + name, prefix + kind + "-" + name}
	for _, c := range candidates {
		c = clip(c, maxGateName)
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
	for i := 2; ; i++ {
		suffix := "-" + strconv.Itoa(i)
		c := clip(candidates[1], maxGateName-len(suffix)) + suffix
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
}

// clip cuts an ASCII name to at most n bytes.
func clip(name string, n int) string {
	if len(name) > n {
		return name[:n]
	}
	return name
}

// slug turns a folder name into something a gate name can start with: lower case letters,
// digits, '-' and '_', beginning with a letter or digit; at most 40 bytes, to leave room.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case slugRune(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-_")
	if len(out) > 40 {
		out = strings.Trim(out[:40], "-_")
	}
	return firstNonEmpty(out, "project")
}

// slugRune reports whether a (lower-case) rune stays in a slug: a letter, a digit or "_".
func slugRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_'
}

// escapeGlob makes a folder name match itself in a doublestar pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
