package runner

import (
	"fmt"
	"io"
	"os"
)

// stdinFeed writes a process's input through a pipe of its own. With an *os.File as Stdin, exec
// starts no copying goroutine of its own, so Wait never waits for input nobody reads.
type stdinFeed struct {
	r, w *os.File
	done chan struct{} // nil until the copy starts
}

// newStdinFeed returns nil for no input: the process then reads /dev/null.
func newStdinFeed(in io.Reader) (*stdinFeed, error) {
	if in == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("creating input pipe: %w", err)
	}
	return &stdinFeed{r: r, w: w}, nil
}

// start writes in into the pipe once the process holds the read end. A reader that stops early
// ends the copy with EPIPE, which is not the gate's error: it may answer without reading it all.
func (f *stdinFeed) start(in io.Reader) {
	if f == nil {
		return
	}
	f.r.Close()
	f.done = make(chan struct{})
	go func() {
		defer close(f.done)
		io.Copy(f.w, in)
		f.w.Close()
	}()
}

// abandon stops feeding and waits for the copy to end. Closing the write end wakes a copy
// blocked on a pipe that a process which escaped the group still holds without reading.
func (f *stdinFeed) abandon() {
	if f == nil {
		return
	}
	f.r.Close() // already closed once started; closing twice only reports an error
	f.w.Close()
	if f.done != nil {
		<-f.done
	}
}
