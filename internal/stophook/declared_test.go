package stophook

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestDeclare(t *testing.T) {
	removed := gates.IntegrityFinding{Rule: gates.RuleTestRemoved, File: "calc_test.go", Line: 10, Message: "test TestSub removed"}
	for _, tc := range []struct {
		name        string
		users       []string
		agent       string
		want, quote bool
	}{
		{name: "the user asks for it by the test's name", users: []string{"please delete TestSub"}, want: true, quote: true},
		{name: "the user asks for it by the file", users: []string{"drop calc_test.go, it is obsolete"}, want: true, quote: true},
		{name: "the user names the test without asking for its removal", users: []string{"why does TestSub fail?"}},
		{name: "the user asks to remove something else", users: []string{"remove TestAdd"}},
		{name: "the agent claims the user asked", agent: "I removed TestSub as you asked", want: true},
		{name: "the agent says it removed it, no request", agent: "I removed TestSub"},
		{name: "the agent claims a request for another test", agent: "the user asked me to remove TestAdd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := declare(removed, tc.users, tc.agent)
			if ok != tc.want || ok && (d.quote != "") != tc.quote {
				t.Errorf("declare = %+v, %v; want declared %v with the user's words %v", d, ok, tc.want, tc.quote)
			}
		})
	}
}

// A changed expectation is declared the same way: the test it names, with a request to change it.
func TestDeclareExpectationChanged(t *testing.T) {
	f := gates.IntegrityFinding{Rule: gates.RuleExpectationChanged, File: "price_test.go",
		Message: "test: TestTotal passed at the base and fails against the change's code under the base's price_test.go: the change edits the tests that would show it"}
	if _, ok := declare(f, []string{"the discount is 99 now: change Total and update TestTotal"}, ""); !ok {
		t.Error("a request to update the test was not a declaration")
	}
	if _, ok := declare(f, []string{"make the tests pass"}, ""); ok {
		t.Error("a request that names no test declared the change")
	}
}
