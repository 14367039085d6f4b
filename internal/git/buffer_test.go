package git

import (
	"io"
	"os/exec"
	"testing"
)

func TestCappedBuffer(t *testing.T) {
	tests := []struct {
		name         string
		truncate     bool
		writes       []string
		want         string
		wantErr      bool
		wantOverflow bool
	}{
		{"fits", false, []string{"ab", "cd"}, "abcd", false, false},
		{"exactly full", false, []string{"abcdef"}, "abcdef", false, false},
		{"overflow fails the write", false, []string{"abcd", "efgh"}, "abcdef", true, true},
		{"overflow truncates silently", true, []string{"abcd", "efgh", "ij"}, "abcdef", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &CappedBuffer{Limit: 6, Truncate: tt.truncate}
			var err error
			for _, w := range tt.writes {
				if _, werr := b.Write([]byte(w)); werr != nil {
					err = werr
				}
			}
			if b.String() != tt.want || (err != nil) != tt.wantErr || b.Overflow != tt.wantOverflow {
				t.Errorf("got %q, err %v, overflow %v; want %q, err %v, overflow %v",
					b.String(), err, b.Overflow, tt.want, tt.wantErr, tt.wantOverflow)
			}
		})
	}
}

// TestCappedBufferAsCommandOutput checks the limit where it matters: behind os/exec's copy,
// which bypasses Write for any writer that also reads from a reader.
func TestCappedBufferAsCommandOutput(t *testing.T) {
	requireGit(t)
	if _, ok := any(&CappedBuffer{}).(io.ReaderFrom); ok {
		t.Fatal("CappedBuffer is an io.ReaderFrom: io.Copy would skip its limit")
	}
	b := &CappedBuffer{Limit: 5, Truncate: true}
	cmd := exec.Command("git", "version")
	cmd.Stdout = b
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b.String() != "git v" || !b.Overflow {
		t.Errorf("got %q, overflow %v; want the first 5 bytes and overflow", b.String(), b.Overflow)
	}
}
