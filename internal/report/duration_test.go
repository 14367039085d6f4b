package report

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{-time.Second, "0ms"},
		{0, "0ms"},
		{400 * time.Microsecond, "0ms"},
		{120 * time.Millisecond, "120ms"},
		{999*time.Millisecond + 400*time.Microsecond, "999ms"},
		{999*time.Millisecond + 600*time.Microsecond, "1.0s"},
		{time.Second, "1.0s"},
		{4240 * time.Millisecond, "4.2s"},
		{9960 * time.Millisecond, "10s"},
		{45 * time.Second, "45s"},
		{59600 * time.Millisecond, "1m00s"},
		{65 * time.Second, "1m05s"},
		{90 * time.Second, "1m30s"},
		{59*time.Minute + 59*time.Second, "59m59s"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1h02m03s"},
		{26 * time.Hour, "26h00m00s"},
	}
	for _, tt := range tests {
		if got := FormatDuration(tt.in); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
