package report

import (
	"fmt"
	"time"
)

// FormatDuration renders a duration at the precision a reader cares about for that size: 120ms,
// 4.2s, 45s, 1m05s, 1h02m03s. Each tier is chosen after rounding, so 999.9ms reads "1.0s", not
// "1000ms".
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if r := d.Round(time.Millisecond); r < time.Second {
		return fmt.Sprintf("%dms", r.Milliseconds())
	}
	if r := d.Round(100 * time.Millisecond); r < 10*time.Second {
		return fmt.Sprintf("%d.%ds", r/time.Second, r%time.Second/(100*time.Millisecond))
	}
	r := d.Round(time.Second)
	switch {
	case r < time.Minute:
		return fmt.Sprintf("%ds", r/time.Second)
	case r < time.Hour:
		return fmt.Sprintf("%dm%02ds", r/time.Minute, r%time.Minute/time.Second)
	default:
		return fmt.Sprintf("%dh%02dm%02ds", r/time.Hour, r%time.Hour/time.Minute, r%time.Minute/time.Second)
	}
}
