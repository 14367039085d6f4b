package review

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// maxCauseBytes keeps a cause short enough for a one-line reason.
const maxCauseBytes = 300

// What the CLIs print when they cannot review, as seen in the wild. Claude Code: "Invalid API
// key · Please run /login", "Not logged in · Please run /login", "OAuth token has expired",
// "Claude AI usage limit reached|1767225600", "Credit balance is too low", "API Error: 529
// Overloaded". Codex: "You've hit your usage limit", "exceeded retry limit, last status: 429 Too
// Many Requests", "401 Unauthorized", "Not logged in". Gemini CLI: "Please set an Auth method
// ...", "Quota exceeded for quota metric ...", "RESOURCE_EXHAUSTED".
var (
	notLoggedIn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)not logged in|/login|log ?in again|invalid api key|api key (is )?(missing|not (set|valid|found))|` +
			`unauthori[sz]ed|\b401\b|\b403\b|oauth token|authenticat|auth method|credentials`)
	})
	overLimit = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)usage limit|rate.?limit|quota|\b429\b|resource.?exhausted|too many requests|` +
			`overloaded|\b529\b|credit balance|billing`)
	})
	// errorLine is a line that starts by saying it reports an error, maybe after a timestamp;
	// a word "error" anywhere would also pick lines of the echoed prompt or diff.
	// footerLine is a line of a CLI's closing statistics (Codex ends with "tokens used" and the
	// count on a line of its own), which says nothing about what went wrong.
	footerLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(tokens used:?( [\d,]+)?|[\d,]+)$`) })
	errorLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(\[[^\]]*\]\s*)?(error|fatal|failed)\b`) })
)

// kindOf names the kind of infrastructure problem a message reports, or "".
func kindOf(msg string) string {
	switch {
	case overLimit().MatchString(msg):
		return "usage or rate limit"
	case notLoggedIn().MatchString(msg):
		return "not logged in"
	}
	return ""
}

// telltaleLine picks the output line that best says what went wrong: the last one naming a
// login or limit problem, else the last one that starts as an error report, else the last non-empty one.
func telltaleLine(output []byte) string {
	lines := strings.Split(string(termtext.Strip(nil, output)), "\n")
	var lastError, last string
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "" || footerLine().MatchString(line) {
			continue
		}
		if kindOf(line) != "" {
			return oneLine(line)
		}
		if lastError == "" && errorLine().MatchString(line) {
			lastError = line
		}
		if last == "" {
			last = line
		}
	}
	if lastError != "" {
		return oneLine(lastError)
	}
	return oneLine(last)
}

// oneLine collapses whitespace and caps the length, for a cause in a one-line reason.
func oneLine(s string) string { return termtext.Short(s, maxCauseBytes) }

// limitWords name a limit in words, not by a bare status code ("status: 429" of a stack dump).
var limitWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)usage limit|rate.?limit|quota|resource.?exhausted|too many requests|overloaded|credit balance`)
})

// lastLimitLine is the last output line naming a usage or rate limit, on one line: one that says
// it in words if there is one (Gemini CLI follows each retry line with its error's fields).
func lastLimitLine(output []byte) string {
	lines := strings.Split(string(termtext.Strip(nil, output)), "\n")
	fallback := ""
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "" || kindOf(line) != "usage or rate limit" {
			continue
		}
		if limitWords().MatchString(line) {
			return oneLine(line)
		}
		if fallback == "" {
			fallback = oneLine(line)
		}
	}
	return fallback
}
