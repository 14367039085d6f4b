package lazyre

import "testing"

func TestCompiledOnFirstUseOnly(t *testing.T) {
	bad := New(`(`) // would panic at start-up with regexp.MustCompile
	if bad.String() != `(` {
		t.Errorf("String() = %q", bad.String())
	}
	defer func() {
		if recover() == nil {
			t.Error("an invalid pattern did not panic on first use")
		}
	}()
	good := New(`^a(\d+)$`)
	if !good.MatchString("a12") || good.FindStringSubmatch("a7")[1] != "7" || good.MatchString("b") {
		t.Error("the pattern does not match as regexp would")
	}
	bad.MatchString("x")
}
