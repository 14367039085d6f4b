package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"
)

// A write to stdout whose reader has gone ends the command quietly with exit 0; any other write
// error, or a broken pipe elsewhere, is still an error.
func TestClosedStdoutIsNoError(t *testing.T) {
	closed := &fs.PathError{Op: "write", Path: os.Stdout.Name(), Err: brokenPipeErr}
	var stderr bytes.Buffer
	if code := handleError(&stderr, nil, closed); code != exitOK || stderr.Len() != 0 {
		t.Errorf("closed stdout: exit %d, stderr %q; want 0 and nothing", code, stderr.String())
	}
	for _, err := range []error{
		&fs.PathError{Op: "write", Path: os.Stdout.Name(), Err: errors.New("no space left on device")},
		&fs.PathError{Op: "write", Path: "report.json", Err: brokenPipeErr},
	} {
		stderr.Reset()
		if code := handleError(&stderr, nil, err); code == exitOK {
			t.Errorf("%v: exit 0, want an error", err)
		}
	}
}
