package stophook

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// An honest weakening can be declared: a test the user asked to delete is no cheat. When every
// finding that blocks is asked for in the user's own words in the transcript (the test or file
// named, with a verb that asks for the removal or the change), or the agent's last message names
// it and says the user asked, the stop after a block lets the agent go, and the reply, the
// history and `gauntlet status` say so loudly: with the user's words, or "claimed, not found in
// the user's words".

// WhyDeclared is a stop let go with integrity findings the user asked for.
const WhyDeclared = "declared"

const (
	// maxDeclaredQuote bounds the user's words quoted for a finding.
	maxDeclaredQuote = 160
	// maxUserMessages bounds the user's messages kept from the transcript's tail.
	maxUserMessages = 200
	// declarationBudget bounds the transcript's read.
	declarationBudget = 2 * time.Second
)

var (
	// askVerb is a user asking for a weakening.
	askVerb = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:remove|delete|drop|skip|disable|rename|change|update|replace|get rid of|relax|lower|loosen|mock|stub|ignore|comment out|turn off|exclude|suppress|hard-?code|special-case|no longer need)`)
	})
	// userAsked is an agent saying the user asked for it.
	userAsked = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(?:the )?user (?:asked|requested|wanted|wants|told)|you (?:asked|requested|wanted|told)|as (?:you )?(?:asked|requested)|at (?:the user's|your) request|per (?:the user's|your) request)`)
	})
	// findingName is a name a finding's message gives: a test, a quoted name.
	findingName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:Test|Fuzz|Benchmark|Example)\w+|\btest_\w+|"[^"]{3,}"|'[^']{3,}'`)
	})
)

// declaration is how one blocking finding was declared.
type declaration struct {
	finding gates.IntegrityFinding
	quote   string // the user's words; "" when only the agent claims it
}

// declaredNotice is the reply's message when every blocking finding was declared at a stop after
// a block, and no gate fails; false otherwise.
func (c *call) declaredNotice(ps *promptState, failed []gates.Result) (string, bool) {
	if ps.Blocks < 1 || len(only(failed, gates.StatusFail, gates.StatusError)) > 0 || !gates.Blocking(c.integrity) {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), declarationBudget)
	defer cancel()
	users, agent := readWords(ctx, c.payload.Transcript())
	agent = cmp.Or(c.payload.LastAssistantMessage, agent)
	var ds, unnamed []declaration
	for _, f := range c.integrity {
		if f.Level != gates.IntegrityBlock {
			continue
		}
		if d, ok := declare(f, users, agent); ok {
			ds = append(ds, d)
		} else {
			unnamed = append(unnamed, declaration{finding: f})
		}
	}
	for _, u := range unnamed {
		d, ok := samePlace(u.finding, ds)
		if !ok {
			return "", false
		}
		ds = append(ds, d)
	}
	return declaredMessage(ds), len(ds) > 0
}

// samePlace declares f with a declared finding at the same place: the assertions a removed test
// took with it are part of the removal asked for.
func samePlace(f gates.IntegrityFinding, ds []declaration) (declaration, bool) {
	for _, d := range ds {
		if d.finding.File == f.File && d.finding.Line == f.Line {
			return declaration{finding: f, quote: d.quote}, true
		}
	}
	return declaration{}, false
}

// declare finds the user's words asking for f, else the agent's claim that they did.
func declare(f gates.IntegrityFinding, users []string, agent string) (declaration, bool) {
	names := namesOf(f)
	for i := len(users) - 1; i >= 0; i-- {
		if askVerb().MatchString(users[i]) && mentionsAny(users[i], names) {
			return declaration{finding: f, quote: termtext.Short(termtext.Line(users[i]), maxDeclaredQuote)}, true
		}
	}
	if userAsked().MatchString(agent) && (mentionsAny(agent, names) || strings.Contains(agent, f.Rule)) {
		return declaration{finding: f}, true
	}
	return declaration{}, false
}

// namesOf are the names a request for f would use: the tests and names its message quotes, its
// file and the file's name.
func namesOf(f gates.IntegrityFinding) []string {
	var out []string
	for _, n := range findingName().FindAllString(f.Message, -1) {
		out = append(out, strings.Trim(n, `"'`))
	}
	if f.File != "" {
		base := f.File[strings.LastIndex(f.File, "/")+1:]
		out = append(out, f.File, base)
	}
	return out
}

func mentionsAny(text string, names []string) bool {
	lower := strings.ToLower(text)
	for _, n := range names {
		if n != "" && strings.Contains(lower, strings.ToLower(n)) {
			return true
		}
	}
	return false
}

// DeclaredNoticePrefix opens the notice of a stop let go on a declared weakening; status reads
// the history's message after it.
const DeclaredNoticePrefix = "gauntlet: allowed a weakening the user asked for: "

// declaredMessage is the loud notice: each finding with the user's words or the claim.
func declaredMessage(ds []declaration) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		who := "claimed, not found in the user's words"
		if d.quote != "" {
			who = `user: "` + d.quote + `"`
		}
		parts = append(parts, d.finding.File+": "+termtext.Short(termtext.Line(d.finding.Message), maxFindingBytes)+" ["+d.finding.Rule+"] — "+who)
	}
	return DeclaredNoticePrefix + strings.Join(parts, "; ")
}

// readWords reads the transcript's tail for the messages the user typed (gauntlet's own reasons
// left out) and the agent's last text.
func readWords(ctx context.Context, path string) (users []string, agent string) {
	r, done, ok := openTranscriptTail(ctx, path)
	if !ok {
		return nil, ""
	}
	defer done()
	sc := bufio.NewScanner(io.LimitReader(r, maxTurnTailBytes))
	sc.Buffer(make([]byte, 64<<10), maxTurnTailBytes)
	for sc.Scan() && ctx.Err() == nil {
		if msg := userText(sc.Bytes()); msg.Text != "" && !ownReason().MatchString(msg.Text) {
			users = append(users, msg.Text)
			if len(users) > maxUserMessages {
				users = users[1:]
			}
		} else if text := assistantText(sc.Bytes()); text != "" {
			agent = text
		}
	}
	return users, agent
}

// assistantText is the text of a transcript line that is the agent's message (Claude Code's
// shape, or a plain role line), "" otherwise.
func assistantText(line []byte) string {
	if !strings.Contains(string(line[:min(len(line), 200)]), "assistant") {
		return ""
	}
	var v transcriptLine
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
	switch {
	case v.Type == "assistant" && v.Message != nil:
		return contentText(v.Message.Content)
	case v.Role == "assistant":
		return contentText(v.Content)
	}
	return ""
}

// openTranscriptTail opens a regular transcript file, bound to ctx, at its last maxTurnTailBytes.
func openTranscriptTail(ctx context.Context, path string) (io.Reader, func(), bool) {
	if path == "" || ctx.Err() != nil {
		return nil, nil, false
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, nil, false
	}
	deadline, _ := ctx.Deadline()
	f, opened, err := safefile.Open(path, deadline)
	if err != nil {
		return nil, nil, false
	}
	unbind := safefile.Bind(ctx, f)
	done := func() { unbind(); f.Close() }
	if !os.SameFile(info, opened) {
		done()
		return nil, nil, false
	}
	r, err := transcriptTail(f, info.Size())
	if err != nil {
		done()
		return nil, nil, false
	}
	return r, done, true
}
