package lock

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// infoName is the sidecar beside the lock file. The holder is kept out of the lock file itself
// so that the lock file is never written, truncated or deleted while others hold it open.
const infoName = "lock.info"

// maxInfoBytes bounds what ReadHolder reads: the sidecar is tiny, and a planted huge file must
// not cost memory.
const maxInfoBytes = 4096

// readWithin bounds the read of the record: it is tiny, and a file whose read blocks is no record.
const readWithin = 2 * time.Second

// Holder says who holds the lock.
type Holder struct {
	PID     int
	Started time.Time
	// Kind and Gates are what the holder said it holds the lock for (Purpose); empty when it
	// did not say. Gates may be cut short of GateCount to keep the record small.
	Kind      string
	Gates     []string
	GateCount int
}

type holderJSON struct {
	PID       int      `json:"pid"`
	Started   string   `json:"started"`
	Kind      string   `json:"kind,omitempty"`
	Gates     []string `json:"gates,omitempty"`
	GateCount int      `json:"gate_count,omitempty"`
}

// maxRecordedGates bounds the gate names a holder records: the record must stay far below
// maxInfoBytes, or ReadHolder (and so the busy error's pid) would lose it whole.
const maxRecordedGates = 16

// BusyError reports that another run holds the lock.
type BusyError struct {
	Holder Holder
	// Known is false when the holder's sidecar was missing or unreadable.
	Known bool
	// Foreign names the process holding the lock when the kernel says it is not gauntlet (see
	// foreignHolder): the lock is not held by a run at all.
	Foreign string
}

func (e *BusyError) Error() string {
	if e.Foreign != "" {
		return "the run lock (.gauntlet/lock) is held by " + e.Foreign + ", which is not a gauntlet run"
	}
	if !e.Known {
		return "a gauntlet run is already in progress"
	}
	return fmt.Sprintf("a gauntlet run is already in progress (pid %d, started %s)",
		e.Holder.PID, e.Holder.Started.Local().Format(time.RFC3339))
}

// ReadHolder returns the holder recorded in stateDir's sidecar, and false when there is none or
// it cannot be parsed. The sidecar is advisory: it can lag behind the lock for a moment after a
// new holder acquires it.
func ReadHolder(stateDir string) (Holder, bool) {
	root, err := os.OpenRoot(stateDir)
	if err != nil {
		return Holder{}, false
	}
	defer root.Close()
	// Bounded and non-blocking: a FIFO planted here must not hang status, nor a run (or a stop
	// hook) that finds the lock busy and names its holder.
	deadline := time.Now().Add(readWithin)
	f, _, err := safefile.OpenInRoot(root, infoName, deadline)
	if err != nil {
		return Holder{}, false
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, maxInfoBytes, deadline)
	if err != nil {
		return Holder{}, false
	}
	var raw holderJSON
	if err := json.Unmarshal(data, &raw); err != nil || raw.PID <= 0 {
		return Holder{}, false
	}
	started, err := time.Parse(time.RFC3339, raw.Started)
	if err != nil {
		return Holder{}, false
	}
	return Holder{PID: raw.PID, Started: started, Kind: raw.Kind, Gates: raw.Gates, GateCount: raw.GateCount}, true
}

// writeHolder replaces the sidecar atomically through the Root, so that a symlink planted at its
// name is replaced rather than followed.
func writeHolder(root *os.Root, h Holder) error {
	data, err := encodeHolder(h)
	if err != nil {
		return err
	}
	tmp := "." + infoName + ".tmp-" + randomHex()
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), infoName), err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), infoName), err)
	}
	if err := root.Rename(tmp, infoName); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), infoName), err)
	}
	return nil
}

// encodeHolder writes h's record, with at most maxRecordedGates of its gates, and none when
// their names are so long that the record would not be read back.
func encodeHolder(h Holder) ([]byte, error) {
	raw := holderJSON{PID: h.PID, Started: h.Started.Format(time.RFC3339), Kind: h.Kind, GateCount: h.GateCount}
	raw.Gates = h.Gates[:min(len(h.Gates), maxRecordedGates)]
	data, err := json.Marshal(raw)
	if err == nil && len(data) > maxInfoBytes/2 {
		raw.Gates = nil
		data, err = json.Marshal(raw)
	}
	if err != nil {
		return nil, fmt.Errorf("encode lock holder: %w", err)
	}
	return data, nil
}

func randomHex() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
