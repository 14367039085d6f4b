// Package todos checks a coding agent's own todo list: a todos gate fails while the latest list
// in the session transcript still has items that are not completed.
package todos

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

// MaxTranscriptBytes is how much of the end of a transcript is read: the latest list is near
// the end, and a long session's transcript can be hundreds of megabytes.
const MaxTranscriptBytes = 32 << 20

// maxReasonItems is how many pending items the one-line reason names.
const maxReasonItems = 5

// Judgement is a todos gate's verdict, why, and the lines that explain it.
type Judgement = gates.Judgement

// Check judges the transcript at path (GAUNTLET_TRANSCRIPT_PATH): fail while the latest todo
// list has items not completed, pass otherwise, with a note when there is nothing to check.
func Check(ctx context.Context, path string) Judgement {
	if path == "" {
		return note(gates.StatusPass, "no transcript to check (GAUNTLET_TRANSCRIPT_PATH is unset: not run from an agent's stop hook)")
	}
	list, err := ReadTranscript(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return note(gates.StatusPass, "no transcript to check: "+path+" does not exist")
	case err != nil:
		return note(gates.StatusError, "cannot read the transcript: "+err.Error())
	case !list.Found:
		return note(gates.StatusPass, "no todo list in the transcript")
	}
	pending := list.Pending()
	if len(pending) == 0 {
		return note(gates.StatusPass, fmt.Sprintf("all %d todo items are completed", len(list.Items)))
	}
	lines := make([]string, 0, len(pending)+1)
	names := make([]string, 0, maxReasonItems)
	for _, it := range pending {
		lines = append(lines, fmt.Sprintf("not completed (%s): %s", orUnknown(it.Status), oneLine(it.Content)))
		if len(names) < maxReasonItems {
			names = append(names, oneLine(it.Content))
		}
	}
	reason := fmt.Sprintf("%d of %d todo items not completed: %s", len(pending), len(list.Items), strings.Join(names, "; "))
	if len(pending) > maxReasonItems {
		reason += fmt.Sprintf("; and %d more", len(pending)-maxReasonItems)
	}
	lines = append(lines, "Finish them (or mark the ones that no longer apply completed or delete them), then stop again.")
	return Judgement{Status: gates.StatusFail, Reason: reason, Lines: lines}
}

func note(status gates.Status, reason string) Judgement {
	return Judgement{Status: status, Reason: reason, Lines: []string{reason}}
}

// ReadTranscript parses the last MaxTranscriptBytes of the transcript at path. Only a regular
// file is read: a symlink or a device planted at the path is refused, and a file whose read
// blocks (/proc/kmsg) gives up when ctx ends.
func ReadTranscript(ctx context.Context, path string) (List, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return List{}, err
	}
	if !info.Mode().IsRegular() {
		return List{}, fmt.Errorf("%s is not a regular file (%s)", path, info.Mode().Type())
	}
	deadline, _ := ctx.Deadline()
	f, opened, err := safefile.Open(path, deadline)
	if err != nil {
		return List{}, err
	}
	defer f.Close()
	defer safefile.Bind(ctx, f)()
	if !os.SameFile(info, opened) {
		return List{}, fmt.Errorf("%s was replaced while being opened", path)
	}
	var r io.Reader = f
	if size := opened.Size(); size > MaxTranscriptBytes {
		if _, err := f.Seek(size-MaxTranscriptBytes, io.SeekStart); err != nil {
			return List{}, fmt.Errorf("%s: %w", path, err)
		}
		if r, err = skipPartialLine(f); err != nil {
			return List{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	list, err := Parse(io.LimitReader(r, MaxTranscriptBytes))
	if err != nil {
		return List{}, fmt.Errorf("%s: %w", path, err)
	}
	return list, nil
}

// skipPartialLine drops what precedes the first newline: the tail of a line cut by the seek.
func skipPartialLine(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		_, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			return br, nil
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return br, nil
		default:
			return nil, err
		}
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "no status"
	}
	return s
}

func oneLine(s string) string {
	if s = termtext.Short(s, 200); s == "" {
		return "(unnamed item)"
	}
	return s
}
