package integrity

import "testing"

func TestIsHarnessFile(t *testing.T) {
	for p, want := range map[string]bool{
		"price_test.go":                true,
		"tests/__init__.py":            true,
		"conftest.py":                  true,
		"src/money.test.js":            true,
		"vitest.config.ts":             true,
		"jest.setup.js":                true,
		"test/setup.js":                true,
		"src/setupTests.ts":            true,
		"pytest.ini":                   true,
		"testdata/golden.txt":          true,
		"internal/testutil/check.go":   true,
		"src/__mocks__/http.js":        true,
		"helpers/test_helpers.py":      true,
		"price.go":                     false,
		"src/money.js":                 false,
		"money.py":                     false,
		"README.md":                    false,
		"internal/latest/latest.go":    false,
		"src/contest.py":               false,
		"pkg/setup.go":                 false,
		"docs/testing-guide/index.md":  false,
		"internal/attestation/sign.go": false,
	} {
		if got := IsHarnessFile(p); got != want {
			t.Errorf("IsHarnessFile(%q) = %v, want %v", p, got, want)
		}
	}
}
