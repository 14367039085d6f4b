// Package cipush reads what a CI says a build is about: for a push, the commit the branch pointed
// at before the push, so that the run is scoped to the commits the push brought; for a pull
// request, its base, so that the run is scoped to what the pull request changes. It reads the
// CI's variables and event file only; whether the commit is in the clone is the engine's to find
// out.
package cipush

import (
	"cmp"
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

// Push is what the CI names of a push or pull-request build.
type Push struct {
	// Before is the commit the pushed branch pointed at before the push (full hex id): the change
	// is what the push brought since. For a pull request, its base: the event's base commit, else
	// the remote-tracking ref of its base branch (origin/main), whose merge-base with HEAD the
	// change is measured from. "" when the CI names none.
	Before string
	// PullRequest is the base branch of a pull-request build ("main"); "" on a push.
	PullRequest string
	// NoRange says why the push has no range to scope to, and every gate runs: the push created
	// the branch, or its event could not be read. "" when Before is set or this is no push the CI
	// describes (another event, another CI): then the run scopes as anywhere else.
	NoRange string
}

// FromEnv reads the push or pull request from the CI's variables. GitHub Actions:
// GITHUB_EVENT_NAME=push and the `before` of the JSON event at GITHUB_EVENT_PATH;
// pull_request and pull_request_target, the event's pull_request.base.sha, else GITHUB_BASE_REF.
// Other events and other CIs name no range.
func FromEnv(getenv func(string) string) Push {
	if getenv("GITHUB_ACTIONS") != "true" {
		return Push{}
	}
	switch getenv("GITHUB_EVENT_NAME") {
	case "push":
		return fromPush(getenv("GITHUB_EVENT_PATH"))
	case "pull_request", "pull_request_target":
		return fromPullRequest(getenv("GITHUB_EVENT_PATH"), getenv("GITHUB_BASE_REF"))
	}
	return Push{}
}

// fromPush is the range of a push event.
func fromPush(path string) Push {
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

// fromPullRequest is the base of a pull-request event: the base commit the event names (the base
// branch's tip when the run started), else the base branch as the checkout fetched it. An event
// file that cannot be read is no reason to give up while the branch is named.
func fromPullRequest(path, baseRef string) Push {
	if path != "" {
		if base, err := readBaseSHA(path); err == nil {
			return Push{Before: base, PullRequest: cmp.Or(baseRef, "its base")}
		}
	}
	if !isBranchName(baseRef) {
		return Push{NoRange: fmt.Sprintf("the pull request names no base commit or branch (GITHUB_BASE_REF %q)", truncate(baseRef))}
	}
	return Push{Before: "origin/" + baseRef, PullRequest: baseRef}
}

// readBefore is the `before` commit of a GitHub push event file, checked to be a commit id.
func readBefore(path string) (string, error) {
	var event struct {
		Before string `json:"before"`
	}
	if err := readEvent(path, &event); err != nil {
		return "", err
	}
	return commitID("before", event.Before)
}

// readBaseSHA is the pull_request.base.sha of a GitHub pull-request event file, checked to be a
// commit id.
func readBaseSHA(path string) (string, error) {
	var event struct {
		PullRequest struct {
			Base struct {
				SHA string `json:"sha"`
			} `json:"base"`
		} `json:"pull_request"`
	}
	if err := readEvent(path, &event); err != nil {
		return "", err
	}
	return commitID("base sha", event.PullRequest.Base.SHA)
}

// readEvent decodes the event file at path into v, boundedly.
func readEvent(path string, v any) error {
	data, err := safefile.ReadFile(path, maxEventBytes, time.Now().Add(readDeadline))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("not a JSON event: %w", err)
	}
	return nil
}

// commitID is id lowercased when it is a commit id; what names it says which field it was.
func commitID(what, id string) (string, error) {
	if !isCommitID(id) {
		return "", fmt.Errorf("its %s is %q, not a commit id", what, truncate(id))
	}
	return strings.ToLower(id), nil
}

// isBranchName says whether name can be handed to git as a branch of origin: no option, no
// revision syntax, nothing git's ref format refuses.
func isBranchName(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") || strings.Contains(name, "..") || strings.Contains(name, "@{") {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r == 0x7f || strings.ContainsRune("~^:?*[\\", r)
	})
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
