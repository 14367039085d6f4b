package main

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/causes"
)

// The environment probes of the causes catalogue look at a simulated machine in this test binary
// (and only here): scripts say how much disk and memory there is, whether the OOM killer acts,
// and which hosts do not accept connections, so that no script depends on the machine it runs on
// or touches the network.
//
//	GAUNTLET_TEST_DISK_FREE=BYTES      free space of every filesystem (default 100 GB)
//	GAUNTLET_TEST_MEM_AVAILABLE=BYTES  available memory (default 64 GB of 128 GB)
//	GAUNTLET_TEST_OOM_KILLS=rising     each look at the memory counts one more OOM kill
//	GAUNTLET_TEST_UNREACHABLE=A,B      host:port (or unix socket paths) refusing connections; * for all
func init() { causes.Machine = simulatedMachine{} }

type simulatedMachine struct{}

func envBytes(name string, def uint64) uint64 {
	if n, err := strconv.ParseUint(os.Getenv(name), 10, 64); err == nil {
		return n
	}
	return def
}

func (simulatedMachine) DiskFree(string) (uint64, error) {
	return envBytes("GAUNTLET_TEST_DISK_FREE", 100e9), nil
}

var oomKills atomic.Uint64

func (simulatedMachine) Memory() (causes.MemoryState, error) {
	m := causes.MemoryState{Available: envBytes("GAUNTLET_TEST_MEM_AVAILABLE", 64e9), Total: 128e9}
	if os.Getenv("GAUNTLET_TEST_OOM_KILLS") == "rising" {
		m.OOMKills = oomKills.Add(1)
	}
	return m, nil
}

func (simulatedMachine) Dial(_ context.Context, _, addr string) error {
	list := strings.Split(os.Getenv("GAUNTLET_TEST_UNREACHABLE"), ",")
	if slices.Contains(list, "*") || slices.Contains(list, addr) {
		return errors.New("connect: connection refused (simulated)")
	}
	return nil
}

func (simulatedMachine) Now() time.Time { return time.Now() }
