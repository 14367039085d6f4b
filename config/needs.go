package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// needList is a gate's `needs`: the names of the gates and setup steps it waits for, each with
// its place in the file, so that an unknown name or a cycle is reported at the item to change.
type needList []need

type need struct {
	Name string
	at   pos
}

func (l needList) names() []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, n := range l {
		out[i] = n.Name
	}
	return out
}

func (l *needList) decodeNode(d *decoder, n *yaml.Node, s subject) bool {
	*l = needList{}
	if isNull(n) {
		return true
	}
	if n.Kind != yaml.SequenceNode {
		d.report(n, "%s must be a list of gate or setup step names, got %s", s, describe(n))
		return false
	}
	seen := map[string]int{}
	for i, item := range n.Content {
		item = resolveAlias(item)
		is := s.at(i + 1)
		if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" {
			d.report(item, "%s must be a gate or setup step name, got %s", is, describe(item))
			continue
		}
		if !validGateName(item.Value) {
			d.report(item, "%s must be a gate or setup step name (1 to 64 lowercase letters, digits, - and _), got %s", is, describe(item))
			continue
		}
		if first, dup := seen[item.Value]; dup {
			d.report(item, "%s repeats %q (item %d)", is, item.Value, first)
			continue
		}
		seen[item.Value] = i + 1
		*l = append(*l, need{Name: item.Value, at: d.pos(item)})
	}
	return true
}

// validateNeeds checks the graph the needs of gates draw over gates and setup steps: every name
// must be one of them, and no gate may end up waiting for itself. Setup steps need nothing, so
// every cycle goes through gates only. Each cycle is reported once, at the need that closes it
// in file order, naming every step of it.
func validateNeeds(gs gateMap, setup setupMap) []Problem {
	var problems []Problem
	known := map[string]bool{}
	var candidates []string
	for _, ng := range gs {
		known[ng.Name] = true
		candidates = append(candidates, ng.Name)
	}
	for _, ns := range setup {
		if known[ns.Name] {
			problems = append(problems, ns.at.problem(fmt.Sprintf(
				"setup step %q has the name of a gate; gates and setup steps share the names needs refers to", ns.Name)))
			continue
		}
		known[ns.Name] = true
		candidates = append(candidates, ns.Name)
	}
	edges := map[string]needList{}
	for _, ng := range gs {
		for _, n := range ng.Gate.Needs {
			switch {
			case n.Name == ng.Name:
				problems = append(problems, n.at.problem(fmt.Sprintf("gate %q needs itself", ng.Name)))
			case !known[n.Name]:
				problems = append(problems, n.at.problem(fmt.Sprintf("gate %q needs %q, which is no gate or setup step%s",
					ng.Name, n.Name, suggestion(n.Name, candidates))))
			default:
				edges[ng.Name] = append(edges[ng.Name], n)
			}
		}
	}
	return append(problems, findCycles(gs, edges)...)
}

// findCycles walks the graph depth first from each gate in file order; a need that leads back to
// a gate still on the path closes a cycle.
func findCycles(gs gateMap, edges map[string]needList) []Problem {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var problems []Problem
	var visit func(name string)
	visit = func(name string) {
		state[name] = onPath
		path = append(path, name)
		for _, n := range edges[name] {
			switch state[n.Name] {
			case unvisited:
				visit(n.Name)
			case onPath:
				cycle := append(slices.Clone(path[slices.Index(path, n.Name):]), n.Name)
				problems = append(problems, n.at.problem(fmt.Sprintf("gates need each other in a cycle, so none of them could start: %s",
					strings.Join(cycle, " -> "))))
			}
		}
		path = path[:len(path)-1]
		state[name] = done
	}
	for _, ng := range gs {
		if state[ng.Name] == unvisited {
			visit(ng.Name)
		}
	}
	return problems
}
