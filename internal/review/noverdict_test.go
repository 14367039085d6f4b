package review

import "testing"

// An answer without a verdict is the change's only when the model answered: a login, a limit, a
// failed CLI are the environment's.
func TestAnsweredWithoutVerdict(t *testing.T) {
	cases := map[string]bool{
		`no parseable verdict in its answer: "Hello!"`:                            true,
		"no parseable verdict in its output: Hello!":                              true,
		"its answer was empty":                                                    true,
		"no parseable verdict in its output: 429 Too Many Requests":               false,
		"no parseable verdict in its answer: Invalid API key · Please run /login": false,
		"exit status 2: reviewer: cannot reach the review service":                false,
		"it printed nothing":                                                      false,
	}
	for cause, want := range cases {
		if got := answeredWithoutVerdict(cause); got != want {
			t.Errorf("%q: %v, want %v", cause, got, want)
		}
	}
}
