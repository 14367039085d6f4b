package suggest

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"json", "json", 0}, {"", "abc", 3}, {"abc", "", 3},
		{"jsno", "json", 1}, {"fromat", "format", 1}, {"timout", "timeout", 1},
		{"kitten", "sitting", 3}, {"ab", "ba", 1}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	flags := []string{"format", "output", "verbose", "json", "jobs", "help"}
	tests := []struct{ got, want string }{
		{"fromat", "format"}, {"jsno", "json"}, {"verbos", "verbose"}, {"help-me", "help"},
		{"jbos", "jobs"}, {"no-such-flag", ""}, {"format", ""}, {"x", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.got, flags); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
}
