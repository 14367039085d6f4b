package scaffold

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var gateName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

func TestLayoutNamesStayUniqueAndValid(t *testing.T) {
	long := strings.Repeat("x", 100)
	projects := []Project{
		{Kind: "Go", Gates: []Gate{{Name: "test"}, {Name: "fmt"}}},
		{Kind: "Python", Gates: []Gate{{Name: "test"}}}, // the root's second "test"
		{Kind: "Make", Gates: []Gate{{Name: "test"}}},
		{Dir: "Web App", Kind: "Node", Gates: []Gate{{Name: "lint"}}},
		{Dir: "web_app", Kind: "Go", Gates: []Gate{{Name: "lint"}}},
		{Dir: "web-app", Kind: "Go", Gates: []Gate{{Name: "lint"}}}, // "web-app-lint" and "web-app-go-lint" are taken
		{Dir: "--ü--", Kind: "Rust", Gates: []Gate{{Name: "fmt"}}},
		{Dir: long, Kind: "Go", Gates: []Gate{{Name: "test"}, {Name: "test"}, {Name: "test"}}},
	}
	var names []string
	for _, g := range Layout(projects) {
		if !gateName.MatchString(g.Name) {
			t.Errorf("gate name %q is not valid", g.Name)
		}
		if slices.Contains(names, g.Name) {
			t.Errorf("gate name %q is used twice", g.Name)
		}
		names = append(names, g.Name)
	}
	want := []string{"test", "fmt", "python-test", "make-test", "web-app-lint", "web_app-lint", "web-app-go-lint",
		"project-fmt"}
	if !slices.Equal(names[:len(want)], want) {
		t.Errorf("names = %q, want them to start with %q", names, want)
	}
}

func TestLayoutScopesSubfolderProjects(t *testing.T) {
	gates := Layout([]Project{
		{Kind: "Go", Gates: []Gate{{Name: "vet"}}},
		{Dir: "web", Kind: "Node", Gates: []Gate{{Name: "lint"}}},
		{Dir: "odd[1]*", Kind: "Node", Gates: []Gate{{Name: "lint"}}},
	})
	if gates[0].Dir != "" || gates[0].Paths != nil {
		t.Errorf("root gate = %+v, want no dir and no paths", gates[0])
	}
	if gates[1].Dir != "web" || !slices.Equal(gates[1].Paths, []string{"web/**"}) {
		t.Errorf("web gate = %+v", gates[1])
	}
	if gates[2].Dir != "odd[1]*" || !slices.Equal(gates[2].Paths, []string{`odd\[1\]\*/**`}) {
		t.Errorf("odd gate = %+v, want the glob characters of the folder escaped", gates[2])
	}
}
