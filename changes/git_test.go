package changes

import (
	"context"
	"errors"
	"strings"
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
			b := &cappedBuffer{limit: 6, truncate: tt.truncate}
			var err error
			for _, w := range tt.writes {
				if _, werr := b.Write([]byte(w)); werr != nil {
					err = werr
				}
			}
			if b.String() != tt.want || (err != nil) != tt.wantErr || b.overflow != tt.wantOverflow {
				t.Errorf("got %q, err %v, overflow %v; want %q, err %v, overflow %v",
					b.String(), err, b.overflow, tt.want, tt.wantErr, tt.wantOverflow)
			}
		})
	}
}

func TestGitErrorCarriesStderr(t *testing.T) {
	dir := newRepo(t)
	_, err := git(context.Background(), dir, "rev-parse", "--verify", "no-such-ref")
	var gitErr *gitError
	if !errors.As(err, &gitErr) || !strings.Contains(err.Error(), "git rev-parse --verify no-such-ref: ") ||
		!strings.Contains(err.Error(), "Needed a single revision") {
		t.Errorf("error = %v, want the command and git's own message", err)
	}
}

func TestGitNotInstalledRunsEverything(t *testing.T) {
	isolateGit(t)
	dir := tempDir(t)
	t.Setenv("PATH", "")

	set := detect(t, dir, "")
	if set.InGit || !set.All || !strings.Contains(set.BaseErr, "git is not installed") {
		t.Errorf("set = %+v, want All because git is missing", set)
	}
}
