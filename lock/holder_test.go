package lock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBusyErrorMessage(t *testing.T) {
	started := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		err  BusyError
		want string
	}{
		{
			name: "known holder",
			err:  BusyError{Holder: Holder{PID: 4242, Started: started}, Known: true},
			want: "a gauntlet run is already in progress (pid 4242, started " + started.Local().Format(time.RFC3339) + ")",
		},
		{
			name: "unknown holder",
			err:  BusyError{Holder: Holder{PID: 4242, Started: started}},
			want: "a gauntlet run is already in progress",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReadHolder(t *testing.T) {
	tests := []struct {
		name    string
		content *string
		want    Holder
		wantOK  bool
	}{
		{"missing", nil, Holder{}, false},
		{"valid", ptr(`{"pid":12,"started":"2026-11-21T09:30:00Z"}`), Holder{PID: 12, Started: time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)}, true},
		{"garbage", ptr(`not json`), Holder{}, false},
		{"zero pid", ptr(`{"pid":0,"started":"2026-11-21T09:30:00Z"}`), Holder{}, false},
		{"bad time", ptr(`{"pid":12,"started":"yesterday"}`), Holder{}, false},
		{"oversized", ptr(`{"pid":12,"started":"2026-11-21T09:30:00Z","pad":"` + strings.Repeat("x", 2*maxInfoBytes) + `"}`), Holder{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != nil {
				if err := os.WriteFile(filepath.Join(dir, "lock.info"), []byte(*tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := ReadHolder(dir)
			if ok != tt.wantOK || got.PID != tt.want.PID || !got.Started.Equal(tt.want.Started) {
				t.Errorf("ReadHolder = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func ptr(s string) *string { return &s }
