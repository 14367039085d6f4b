// Package cipush reads what a CI says a push build is about: the commit the branch pointed at
// before the push, so that a run on a push is scoped to the commits the push brought. It reads
// the CI's variables and event file only; whether the commit is in the clone is the engine's to
// find out.
package cipush

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// maxEventBytes bounds the event file read: GitHub's push payload lists at most 2048 commits,
// a few megabytes; one larger is not read.
const maxEventBytes = 32 << 20

// readDeadline bounds the time the event file may take to read.
const readDeadline = 10 * time.Second

// Push is what the CI names of a push build.
type Push struct {
	// Before is the commit the pushed branch pointed at before the push (full hex id): the change
	// is what the push brought since. "" when the CI names none.
	Before string
	// NoRange says why the push has no range to scope to, and every gate runs: the push created
	// the branch, or its event could not be read. "" when Before is set or this is no push the CI
	// describes (another event, another CI): then the run scopes as anywhere else.
	NoRange string
}

// FromEnv reads the push from the CI's variables. GitHub Actions: GITHUB_EVENT_NAME=push and the
// `before` of the JSON event at GITHUB_EVENT_PATH. Other events (a pull request is scoped by its
// base branch) and other CIs name no range.
func FromEnv(getenv func(string) string) Push {
	if getenv("GITHUB_ACTIONS") != "true" || getenv("GITHUB_EVENT_NAME") != "push" {
		return Push{}
	}
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return Push{NoRange: "the push event names no event file (GITHUB_EVENT_PATH)"}
	}
	before, err := readBefore(path)
	if err != nil {
		return Push{NoRange: fmt.Sprintf("the push event %s could not be read: %v", path, err)}
	}
	if strings.Trim(before, "0") == "" {
		// GitHub's way of saying the branch did not exist before the push.
		return Push{NoRange: "the push created the branch: nothing to compare with"}
	}
	return Push{Before: before}
}

// readBefore is the `before` commit of a GitHub push event file, checked to be a commit id.
func readBefore(path string) (string, error) {
	data, err := safefile.ReadFile(path, maxEventBytes, time.Now().Add(readDeadline))
	if err != nil {
		return "", err
	}
	var event struct {
		Before string `json:"before"`
	}
	if err := json.Unmarshal(data, &event); err != nil {
		return "", fmt.Errorf("not a JSON event: %w", err)
	}
	if !isCommitID(event.Before) {
		return "", fmt.Errorf("its before is %q, not a commit id", truncate(event.Before))
	}
	return strings.ToLower(event.Before), nil
}

// isCommitID says whether s is a full SHA-1 or SHA-256 object id.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

// truncate keeps a value read from the event short in a message.
func truncate(s string) string {
	const most = 80
	if len(s) > most {
		return s[:most] + "..."
	}
	return s
}
