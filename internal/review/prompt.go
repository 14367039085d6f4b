package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// DefaultPrompt is what a review gate asks when it sets neither prompt nor prompt_file.
const DefaultPrompt = `Review the code change below as a careful senior engineer would before merging it.
Look for bugs, security problems, data loss, race conditions, broken error handling and
missing tests for new behaviour. Ignore style and formatting unless they hide a bug.`

// maxPromptFileBytes bounds prompt_file: instructions, not a document to review.
const maxPromptFileBytes = 1 << 20

// answerFormat tells every reviewer how to answer. The shape is written out rather than given
// as a JSON example, so that a CLI echoing its prompt never prints something that parses as a
// verdict.
const answerFormat = `## How to answer

Answer with one JSON object and nothing else, of this shape:

  {"status": "pass" or "fail",
   "findings": [{"file": path as in the diff, "line": line number in the new file,
                 "severity": "error" or "warning", "message": what is wrong and how to fix it}]}

- "fail" only when something must be fixed before this change is merged; otherwise "pass".
- Report only problems on lines this change adds (the lines starting with "+" in the diff);
  findings on other lines are discarded.
- Do not modify any file.`

// buildPrompt is everything a reviewer reads on stdin: the instructions, how to answer, what
// was left out, and the diff.
func buildPrompt(instructions string, patch *snapshot.Patch, maxBytes int64) []byte {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(instructions))
	b.WriteString("\n\n")
	b.WriteString(answerFormat)
	b.WriteString("\n\n")
	if notes := promptNotes(patch, maxBytes); len(notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
		b.WriteString("\n")
	}
	writeFileList(&b, patch.Files)
	fmt.Fprintf(&b, "## The change (diff against %s)\n\n", patch.Against)
	b.WriteString("----- BEGIN DIFF -----\n")
	b.Write(patch.Text)
	if len(patch.Text) > 0 && patch.Text[len(patch.Text)-1] != '\n' {
		b.WriteString("\n")
	}
	b.WriteString("----- END DIFF -----\n")
	return []byte(b.String())
}

// maxListedFiles bounds the list of changed files in the prompt; past it the count is given.
const maxListedFiles = 2000

// writeFileList lists every file of the change, shown in the diff or not: a reviewer of a cut
// diff knows what the change holds beyond what it sees.
func writeFileList(b *strings.Builder, files []string) {
	if len(files) == 0 {
		return
	}
	b.WriteString("## Changed files (all of them, whether the diff below shows them or not)\n\n")
	for i, f := range files {
		if i == maxListedFiles {
			fmt.Fprintf(b, "- … and %d more\n", len(files)-i)
			break
		}
		b.WriteString("- " + oneLine(f) + "\n")
	}
	b.WriteString("\n")
}

func promptNotes(patch *snapshot.Patch, maxBytes int64) []string {
	var notes []string
	if patch.Cut {
		notes = append(notes, fmt.Sprintf("The diff was cut at %d bytes (max_diff_bytes): the rest of the change is not shown. "+
			"Judge only what is shown, and do not fail the change for what may be missing.", maxBytes))
	}
	if n := len(patch.LeftOut); n > 0 {
		notes = append(notes, fmt.Sprintf("%d changed %s that may hold secrets %s left out on purpose: %s.",
			n, plural(n, "file", "files"), plural(n, "was", "were"), strings.Join(patch.LeftOut, ", ")))
	}
	return notes
}

// loadInstructions returns the gate's prompt, its prompt_file (read inside the project root
// only), or the default.
func loadInstructions(ctx context.Context, root string, prompt, promptFile string) (string, error) {
	switch {
	case prompt != "":
		return prompt, nil
	case promptFile == "":
		return DefaultPrompt, nil
	}
	// The gate's deadline bounds the read: a FIFO is refused without blocking, and a file whose
	// read blocks gives up when the gate's time is up.
	deadline, _ := ctx.Deadline()
	projectRoot, err := os.OpenRoot(root)
	if err != nil {
		return "", fmt.Errorf("prompt_file: %w", err)
	}
	defer projectRoot.Close()
	f, _, err := safefile.OpenInRoot(projectRoot, promptFile, deadline)
	if err != nil {
		return "", fmt.Errorf("prompt_file: %w", err)
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxPromptFileBytes, deadline)
	switch {
	case errors.Is(err, safefile.ErrTooLarge):
		return "", fmt.Errorf("prompt_file %s: larger than %d bytes", promptFile, maxPromptFileBytes)
	case err != nil:
		return "", fmt.Errorf("prompt_file %s: %w", promptFile, err)
	}
	return promptText(promptFile, data)
}

func promptText(promptFile string, data []byte) (string, error) {
	if strings.TrimSpace(string(data)) == "" {
		return "", errors.New("prompt_file " + promptFile + " is empty")
	}
	return string(data), nil
}

// instructionsAtBase returns the gate's prompt_file as the base of the change holds it (found
// false when there is none there: a prompt the change adds with its gate is read from the work
// tree). At a stop the reviewer's instructions are the base's, as its gates are: a tracked prompt
// rewritten to "Approve every change", or deleted (once an error, so an allow), instructs
// nothing.
func instructionsAtBase(ctx context.Context, snap *snapshot.Snapshot, promptFile string) (text string, found bool, err error) {
	from, _, hasBase, err := snap.DiffBase(ctx)
	if err != nil || !hasBase {
		return "", false, err
	}
	data, found, err := snap.FileAt(ctx, from, promptFile, maxPromptFileBytes)
	if err != nil || !found {
		return "", false, err
	}
	text, err = promptText(promptFile, data)
	return text, true, err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
