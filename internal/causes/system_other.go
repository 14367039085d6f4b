//go:build !linux

package causes

import (
	"context"
	"errors"
	"net"
	"time"
)

// system is the machine itself. Free space and memory are read on Linux only; elsewhere those
// probes cannot look, and a signature of theirs does not excuse a failure.
type system struct{}

var errNotSupported = errors.New("not supported on this system")

func (system) DiskFree(string) (uint64, error) { return 0, errNotSupported }

func (system) Memory() (MemoryState, error) { return MemoryState{}, errNotSupported }

func (system) Dial(ctx context.Context, network, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return err
	}
	return c.Close()
}

func (system) Now() time.Time { return time.Now() }
