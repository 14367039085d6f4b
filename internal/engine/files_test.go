package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
)

// Outside git the tree is walked for {files}: a run that has ended (its deadline, an interrupt)
// walks no further.
func TestEveryFileStopsWithTheRun(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := &fileLister{snap: snapshot.New(root, snapshot.Options{})}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	files, err := l.everyFile(ctx)
	if err == nil || len(files) != 0 {
		t.Errorf("a cancelled run walked the tree: %v, %v", files, err)
	}
}
