package census

import (
	"slices"
	"testing"
)

func TestListingReadsEachPackagesTests(t *testing.T) {
	l := NewListing()
	for _, line := range []string{
		"abc123:calc_test.go:func TestAdd(t *testing.T) {",
		"abc123:calc_test.go:func ExampleAdd() {",
		"abc123:sub/x_test.go:func TestX(t *testing.T) {",
		"abc123:sub/x_test.go:func FuzzX(f *testing.F) {",
		"abc123:sub/x_test.go:func helper(t *testing.T) {",
		"abc123:sub/x.go:func TestLooksLikeOne() {",
		"abc123:testdata/y_test.go:func TestInTestdata(t *testing.T) {",
		"abc123:vendor/v/v_test.go:func TestVendored(t *testing.T) {",
		"abc123:_old/o_test.go:func TestUnderscored(t *testing.T) {",
		"not a grep line",
	} {
		l.GoGrepLine(line, "example.com/m")
	}
	if !slices.Equal(l.Tests["example.com/m"], []string{"TestAdd", "ExampleAdd"}) || !slices.Equal(l.Tests["example.com/m/sub"], []string{"TestX", "FuzzX"}) {
		t.Errorf("tests %v", l.Tests)
	}
	if len(l.Tests) != 2 {
		t.Errorf("packages %v", l.Tests)
	}
	if Top(Test{Suite: "p", Name: "TestT/case_1/x"}) != "p::TestT" || Top(Test{Suite: "p", Name: "TestT"}) != "p::TestT" {
		t.Error("Top")
	}
}
