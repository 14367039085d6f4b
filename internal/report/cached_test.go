package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
)

// A pass answered from the cache says so in every format; a pass that ran does not.
func TestCachedPassShowsInEveryFormat(t *testing.T) {
	r := New("run-1", time.Unix(0, 0), time.Second, []gates.Result{
		{Name: "hit", Kind: gates.KindCheck, Status: gates.StatusPass, Reason: "cached: passed in run r0 with the same inputs", Cached: true},
		{Name: "ran", Kind: gates.KindCheck, Status: gates.StatusPass},
	})
	render := func(f Format) string {
		var b bytes.Buffer
		if err := Write(&b, f, r, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if out := render(FormatJSON); strings.Count(out, `"cached": true`) != 1 {
		t.Errorf("JSON report: want one \"cached\": true\n%s", out)
	}
	text := render(FormatText)
	if !strings.Contains(text, "hit") || !strings.Contains(text, "cached") || strings.Contains(lineOf(text, "ran"), "cached") {
		t.Errorf("text report:\n%s", text)
	}
	if out := render(FormatJUnit); !strings.Contains(out, "cached: passed in run r0") {
		t.Errorf("JUnit report:\n%s", out)
	}
	var gh bytes.Buffer
	if err := WriteGitHub(&gh, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gh.String(), "::notice title=gauntlet%3A hit::cached pass") || strings.Contains(gh.String(), "ran") {
		t.Errorf("GitHub annotations:\n%s", gh.String())
	}
}

func lineOf(text, name string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, " "+name+" ") {
			return l
		}
	}
	return ""
}

// The cached pass's reason already says "cached: passed in run …": JUnit's note must not say
// "cached:" twice.
func TestJUnitSaysCachedOnce(t *testing.T) {
	r := New("run-1", time.Unix(0, 0), time.Second, []gates.Result{
		{Name: "hit", Kind: gates.KindCheck, Status: gates.StatusPass, Reason: "cached: passed in run r0 with the same inputs", Cached: true},
	})
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "cached: cached:") || strings.Count(out, "cached:") != 1 {
		t.Errorf("want one \"cached:\" in the JUnit report:\n%s", out)
	}
	if !strings.Contains(out, "cached: passed in run r0 with the same inputs") {
		t.Errorf("want the cache's reason in the JUnit report:\n%s", out)
	}
}
