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

// The honest twins: no push that GitHub describes, no range and nothing to say.
func TestFromEnvNotAPush(t *testing.T) {
	p := eventFile(t, `{"before":"`+sha+`"}`)
	for name, vars := range map[string]map[string]string{
		"pull request": {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": p},
		"not actions":  {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": p},
		"another CI":   {"CI": "true"},
	} {
		if got := FromEnv(env(vars)); got != (Push{}) {
			t.Errorf("%s: FromEnv = %+v, want nothing", name, got)
		}
	}
}
