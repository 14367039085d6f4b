package runner

import (
	"io"
	"os"
	"time"
)

// drainTimeout bounds how long output is still read after a gate's process group was killed:
// a process that left the group (setsid) may hold the pipe open forever.
const drainTimeout = 2 * time.Second

// groupPollInterval is how often a terminated group is checked for having exited, so that a
// gate that stops promptly on SIGTERM is not held for the whole grace period.
const groupPollInterval = 20 * time.Millisecond

// pump copies r to out until EOF or the read deadline; out must not fail.
func pump(r *os.File, out io.Writer) {
	bp := pumpBuffers.Get().(*[]byte)
	defer pumpBuffers.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 {
			out.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}
