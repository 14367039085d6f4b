package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/testos"
)

func TestAppendFileAndReadTail(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, s := range []string{"one\n", "two\n", "three\n"} {
		if _, err := d.AppendFile("state/h.jsonl", []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	data, size, err := d.ReadFileTail("state/h.jsonl", 6)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "three\n" || size != 14 {
		t.Errorf("tail %q, size %d", data, size)
	}

	// A symlink planted at the name must not make the append land outside the state dir.
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, Name, "state", "evil")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AppendFile("state/evil", []byte("x")); err == nil {
		t.Error("append through a symlink leaving the state dir succeeded")
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep" {
		t.Errorf("file outside changed: %q", got)
	}

	// A FIFO planted at the name is refused at once, for appending and for reading.
	fifo := filepath.Join(root, Name, "state", "fifo")
	if err := testos.Mkfifo(fifo); errors.Is(err, testos.ErrUnsupported) {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	if _, err := d.AppendFile("state/fifo", []byte("x")); err == nil {
		t.Error("appended to a FIFO")
	}
	if _, _, err := d.ReadFileTail("state/fifo", 10); err == nil {
		t.Error("read a FIFO")
	}
}
