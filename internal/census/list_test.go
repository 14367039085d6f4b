package census

import (
	"slices"
	"strings"
	"testing"
)

func TestListingReadsEachPackagesTests(t *testing.T) {
	out := "TestAdd\nTestSub\nExampleAdd\nok  \texample.com/m\t0.002s\n" +
		"?   \texample.com/m/empty\t[no test files]\n" +
		"TestX\nok  \texample.com/m/sub\t(cached)\n" +
		"# example.com/m/broken\nbroken/b.go:3:1: syntax error\nFAIL\texample.com/m/broken [build failed]\n" +
		"TestNotATest is printed by a test\n"
	l := NewListing()
	for _, line := range strings.Split(out, "\n") {
		l.Line([]byte(line))
	}
	if !slices.Equal(l.Tests["example.com/m"], []string{"TestAdd", "TestSub", "ExampleAdd"}) || !slices.Equal(l.Tests["example.com/m/sub"], []string{"TestX"}) {
		t.Errorf("tests %v", l.Tests)
	}
	if len(l.Tests) != 2 || !slices.Equal(l.Failed, []string{"example.com/m/broken"}) {
		t.Errorf("packages %v, failed %v", l.Tests, l.Failed)
	}
	if Top(Test{Suite: "p", Name: "TestT/case_1/x"}) != "p::TestT" || Top(Test{Suite: "p", Name: "TestT"}) != "p::TestT" {
		t.Error("Top")
	}
}
