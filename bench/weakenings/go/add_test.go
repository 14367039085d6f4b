package calc

import "testing"

func TestAdd(t *testing.T) {
	got := Add(2, 3)
	if got != 5 {
		t.Fatalf("Add(2, 3) = %d, want 5", got)
	}
	if Add(90, 20) != 100 {
		t.Fatal("Add(90, 20) should saturate at 100")
	}
}
