package cipush

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sha = "0123456789abcdef0123456789abcdef01234567"

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func eventFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func onPush(path string) map[string]string {
	return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": path}
}

func TestFromEnvBefore(t *testing.T) {
	p := eventFile(t, `{"ref":"refs/heads/main","before":"`+strings.ToUpper(sha)+`","after":"x","commits":[{"id":"y"}]}`)
	got := FromEnv(env(onPush(p)))
	if got.Before != sha || got.NoRange != "" {
		t.Fatalf("FromEnv = %+v, want before %s", got, sha)
	}
}

func TestFromEnvNewBranch(t *testing.T) {
	p := eventFile(t, `{"before":"0000000000000000000000000000000000000000"}`)
	got := FromEnv(env(onPush(p)))
	if got.Before != "" || !strings.Contains(got.NoRange, "created the branch") {
		t.Fatalf("FromEnv = %+v, want no range: a new branch", got)
	}
}

func TestFromEnvUnreadable(t *testing.T) {
	for name, body := range map[string]string{
		"not json":     "not json",
		"no before":    `{"ref":"refs/heads/main"}`,
		"not a commit": `{"before":"--upload-pack=evil"}`,
		"short id":     `{"before":"0123456"}`,
	} {
		t.Run(name, func(t *testing.T) {
			got := FromEnv(env(onPush(eventFile(t, body))))
			if got.Before != "" || !strings.Contains(got.NoRange, "could not be read") {
				t.Fatalf("FromEnv = %+v, want no range, the event unreadable", got)
			}
		})
	}
	got := FromEnv(env(onPush(filepath.Join(t.TempDir(), "missing.json"))))
	if got.Before != "" || got.NoRange == "" {
		t.Fatalf("missing event file: FromEnv = %+v, want no range", got)
	}
}

func onPR(event, path, baseRef string) map[string]string {
	return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": path, "GITHUB_BASE_REF": baseRef}
}

// A pull request's change is measured from its base: the event's pull_request.base.sha (the
// base branch's tip when the run started), for both pull_request and pull_request_target.
func TestFromEnvPullRequestBaseSHA(t *testing.T) {
	p := eventFile(t, `{"action":"synchronize","number":7,"pull_request":{"head":{"sha":"`+strings.Repeat("f", 40)+`","ref":"feature"},"base":{"ref":"main","sha":"`+strings.ToUpper(sha)+`"}}}`)
	for _, event := range []string{"pull_request", "pull_request_target"} {
		got := FromEnv(env(onPR(event, p, "main")))
		if got.Before != sha || got.PullRequest != "main" || got.NoRange != "" {
			t.Errorf("%s: FromEnv = %+v, want the base sha %s of main", event, got, sha)
		}
	}
}

// An event without a usable base.sha falls back to the base branch as the checkout fetched it.
func TestFromEnvPullRequestBaseRef(t *testing.T) {
	for name, body := range map[string]string{
		"no base sha":  `{"pull_request":{"base":{"ref":"main"}}}`,
		"not a commit": `{"pull_request":{"base":{"sha":"--upload-pack=evil"}}}`,
		"not json":     `not json`,
	} {
		got := FromEnv(env(onPR("pull_request", eventFile(t, body), "release/1.x")))
		if got.Before != "origin/release/1.x" || got.PullRequest != "release/1.x" || got.NoRange != "" {
			t.Errorf("%s: FromEnv = %+v, want origin/release/1.x", name, got)
		}
	}
	got := FromEnv(env(onPR("pull_request", "", "main")))
	if got.Before != "origin/main" {
		t.Errorf("no event file: FromEnv = %+v, want origin/main", got)
	}
}

// A pull request that names no base at all runs every gate, saying why; a base branch that
// could be read as an option is no base.
func TestFromEnvPullRequestNoBase(t *testing.T) {
	for name, ref := range map[string]string{"none": "", "option": "-evil", "odd": "a b"} {
		got := FromEnv(env(onPR("pull_request", eventFile(t, `{}`), ref)))
		if got.Before != "" || !strings.Contains(got.NoRange, "pull request") {
			t.Errorf("%s: FromEnv = %+v, want no range, saying why", name, got)
		}
	}
}

// The honest twins: no push that GitHub describes, no range and nothing to say.
func TestFromEnvNotAPush(t *testing.T) {
	p := eventFile(t, `{"before":"`+sha+`"}`)
	for name, vars := range map[string]map[string]string{
		"schedule":       {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule", "GITHUB_EVENT_PATH": p},
		"not actions":    {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": p},
		"PR not actions": {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"},
		"another CI":     {"CI": "true"},
	} {
		if got := FromEnv(env(vars)); got != (Push{}) {
			t.Errorf("%s: FromEnv = %+v, want nothing", name, got)
		}
	}
}
