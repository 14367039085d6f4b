package panics

import "testing"

func TestFirst(t *testing.T) { t.Log("ran first") }

func TestPanics(t *testing.T) {
	t.Log("about to panic")
	var m map[string]int
	m["x"] = 1
}

func TestNeverRuns(t *testing.T) {}
