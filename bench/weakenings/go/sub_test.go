package calc

import "testing"

func TestSub(t *testing.T) {
	if Sub(3, 2) != 1 {
		t.Fatal("Sub(3, 2) != 1")
	}
	if Sub(2, 3) != 0 {
		t.Fatal("Sub(2, 3) should floor at 0")
	}
}
