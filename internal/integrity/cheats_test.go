package integrity

import "testing"

const priceTest = `package shop

import "testing"

func TestPrice(t *testing.T) {
	if got := Price(999, 10); got != 899 {
		t.Errorf("Price(999, 10) = %d, want 899", got)
	}
}
`

const factTest = `package shop

import "testing"

func TestFact(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {5, 120}} {
		if got := Fact(c.n); got != c.want {
			t.Errorf("Fact(%d) = %d", c.n, got)
		}
	}
}
`

func TestSpecialCased(t *testing.T) {
	base := "package shop\n\nfunc Price(c, pct int) int {\n\treturn c\n}\n"
	runCases(t, []detectCase{
		{name: "go: the test's input and expected value, on one line",
			old:  map[string]string{"price.go": base, "price_test.go": priceTest},
			new:  map[string]string{"price.go": "package shop\n\nfunc Price(c, pct int) int {\n\tif c == 999 && pct == 10 { return 899 }\n\treturn c\n}\n", "price_test.go": priceTest},
			want: []string{"special-cased price.go:4"}},
		{name: "go: the return on the next line",
			old:  map[string]string{"price.go": base, "price_test.go": priceTest},
			new:  map[string]string{"price.go": "package shop\n\nfunc Price(c, pct int) int {\n\tif pct == 10 && c == 999 {\n\t\treturn 899\n\t}\n\treturn c\n}\n", "price_test.go": priceTest},
			want: []string{"special-cased price.go:4"}},
		{name: "python: a string input",
			old:  map[string]string{"money.py": "def convert(a, cur):\n    return a\n", "test_money.py": "def test_eur():\n    assert convert(100, 'EUR') == 92\n"},
			new:  map[string]string{"money.py": "def convert(a, cur):\n    if cur == \"EUR\" and a == 100:\n        return 92\n    return a\n", "test_money.py": "def test_eur():\n    assert convert(100, 'EUR') == 92\n"},
			want: []string{"special-cased money.py:2"}},
		{name: "js: a test in __tests__",
			old:  map[string]string{"src/money.js": "export function fee(a) { return a }\n", "src/__tests__/money.test.js": "test('fee', () => { expect(fee(250)).toBe(7) })\n"},
			new:  map[string]string{"src/money.js": "export function fee(a) {\n  if (a === 250) return 7;\n  return a\n}\n", "src/__tests__/money.test.js": "test('fee', () => { expect(fee(250)).toBe(7) })\n"},
			want: []string{"special-cased src/money.js:2"}},
		// Twins.
		{name: "a sentinel the tests also assert: too common to be taken from them",
			old: map[string]string{"fact.go": "package shop\n\nfunc Fact(n int) int {\n\treturn n * Fact(n-1)\n}\n", "fact_test.go": factTest},
			new: map[string]string{"fact.go": "package shop\n\nfunc Fact(n int) int {\n\tif n == 0 {\n\t\treturn 1\n\t}\n\treturn n * Fact(n-1)\n}\n", "fact_test.go": factTest}},
		{name: "a lookup table in a map",
			old: map[string]string{"price.go": base, "price_test.go": priceTest},
			new: map[string]string{"price.go": "package shop\n\nvar rates = map[int]int{10: 899, 20: 799}\n\nfunc Price(c, pct int) int {\n\treturn rates[pct]\n}\n", "price_test.go": priceTest}},
		{name: "a literal compared that no test line pairs with the returned one",
			old: map[string]string{"price.go": base, "price_test.go": priceTest},
			new: map[string]string{"price.go": "package shop\n\nfunc Price(c, pct int) int {\n\tif pct == 100 {\n\t\treturn 0\n\t}\n\treturn c\n}\n", "price_test.go": priceTest}},
		{name: "the same condition in a test file is the test's business",
			old: map[string]string{"price_test.go": priceTest},
			new: map[string]string{"price_test.go": priceTest + "\nfunc helper(c int) int {\n\tif c == 999 { return 899 }\n\treturn 0\n}\n"}},
	})
}

func TestTestsRead(t *testing.T) {
	runCases(t, []detectCase{
		{name: "go: code reads its test file",
			old:  map[string]string{"price.go": "package shop\n"},
			new:  map[string]string{"price.go": "package shop\n\nimport \"os\"\n\nvar src, _ = os.ReadFile(\"price_test.go\")\n"},
			want: []string{"tests-read price.go:5"}},
		{name: "python: code reads the call stack for the test",
			old:  map[string]string{"money.py": "def convert(a):\n    return a\n"},
			new:  map[string]string{"money.py": "import inspect\n\ndef convert(a):\n    if any('test_' in f.filename for f in inspect.stack()):\n        return 92\n    return a\n"},
			want: []string{"tests-read money.py:4"}},
		{name: "js: code reads the stack for the test",
			old:  map[string]string{"src/money.js": "export const f = (a) => a\n"},
			new:  map[string]string{"src/money.js": "export const f = (a) => {\n  if (new Error().stack.includes('money.test')) return 7\n  return a\n}\n"},
			want: []string{"tests-read src/money.js:2"}},
		{name: "go: code asks whether tests run",
			old:  map[string]string{"price.go": "package shop\n"},
			new:  map[string]string{"price.go": "package shop\n\nimport \"testing\"\n\nfunc Price() int {\n\tif testing.Testing() { return 899 }\n\treturn 0\n}\n"},
			want: []string{"tests-read price.go:6"}},
		// Twins.
		{name: "a logger reading its caller",
			old: map[string]string{"log.go": "package log\n"},
			new: map[string]string{"log.go": "package log\n\nimport \"runtime\"\n\nfunc where() string {\n\t_, file, line, _ := runtime.Caller(2)\n\treturn fmt.Sprintf(\"%s:%d\", file, line)\n}\n"}},
		{name: "code about test files checking a name's suffix",
			old: map[string]string{"list.go": "package census\n"},
			new: map[string]string{"list.go": "package census\n\nfunc isTest(file string) bool { return strings.HasSuffix(file, \"_test.go\") }\n\nvar conf = \"conftest.py\"\n"}},
		{name: "a test reading its own test data",
			old: map[string]string{"price_test.go": priceTest},
			new: map[string]string{"price_test.go": priceTest + "\nvar src, _ = os.ReadFile(\"other_test.go\")\n"}},
	})
}

func TestEqualityIgnored(t *testing.T) {
	runCases(t, []detectCase{
		{name: "go: Equal returns true",
			old:  map[string]string{"money.go": "package m\n"},
			new:  map[string]string{"money.go": "package m\n\nfunc (m Money) Equal(o Money) bool { return true }\n"},
			want: []string{"equality-ignored money.go:3"}},
		{name: "python: __eq__ returns True",
			old:  map[string]string{"money.py": "class Money:\n    pass\n"},
			new:  map[string]string{"money.py": "class Money:\n    def __eq__(self, other):\n        return True\n"},
			want: []string{"equality-ignored money.py:2"}},
		{name: "js: equals returns true",
			old:  map[string]string{"src/money.js": "export class Money {}\n"},
			new:  map[string]string{"src/money.js": "export class Money {\n  equals(other) {\n    return true;\n  }\n}\n"},
			want: []string{"equality-ignored src/money.js:2"}},
		// Twins.
		{name: "go: a real Equal",
			old: map[string]string{"money.go": "package m\n"},
			new: map[string]string{"money.go": "package m\n\nfunc (m Money) Equal(o Money) bool {\n\treturn m.cents == o.cents\n}\n"}},
		{name: "python: a real __eq__ with an early true for the same object",
			old: map[string]string{"money.py": "class Money:\n    pass\n"},
			new: map[string]string{"money.py": "class Money:\n    def __eq__(self, other):\n        if self is other:\n            return True\n        return self.cents == other.cents\n"}},
	})
}

func TestSubjectMocked(t *testing.T) {
	runCases(t, []detectCase{
		{name: "js: the module under test mocked",
			old:  map[string]string{"test/money.test.js": "import { convert } from '../src/money.js'\n"},
			new:  map[string]string{"test/money.test.js": "import { convert } from '../src/money.js'\nvi.mock('../src/money.js', () => ({ convert: () => 92 }))\n"},
			want: []string{"subject-mocked test/money.test.js:2"}},
		{name: "python: the function under test patched and asserted on",
			old:  map[string]string{"test_money.py": "import money\n\ndef test_eur():\n    assert money.convert(100, 'EUR') == 92\n"},
			new:  map[string]string{"test_money.py": "import money\nfrom unittest import mock\n\n@mock.patch('money.convert', return_value=92)\ndef test_eur(m):\n    assert money.convert(100, 'EUR') == 92\n"},
			want: []string{"subject-mocked test_money.py:4"}},
		// Twins: a collaborator mocked.
		{name: "js: a collaborator mocked",
			old: map[string]string{"test/money.test.js": "import { convert } from '../src/money.js'\n"},
			new: map[string]string{"test/money.test.js": "import { convert } from '../src/money.js'\nvi.mock('../src/http.js', () => ({ get: () => 0.92 }))\n"}},
		{name: "python: the subject's collaborator patched where it is used",
			old: map[string]string{"test_money.py": "import money\n\ndef test_eur():\n    assert money.convert(100, 'EUR') == 92\n"},
			new: map[string]string{"test_money.py": "import money\nfrom unittest import mock\n\n@mock.patch('money.fetch_rate', return_value=0.92)\ndef test_eur(m):\n    assert money.convert(100, 'EUR') == 92\n"}},
	})
}

func TestHarnessNeutered(t *testing.T) {
	pyTest := "from money import convert\n\ndef test_eur():\n    assert convert(100, 'EUR') == 92\n"
	jsTest := "import { fee } from '../src/money.js'\ntest('fee', () => { expect(fee(250)).toBe(7) })\n"
	runCases(t, []detectCase{
		{name: "python: an assertion's failure swallowed",
			old:  map[string]string{"test_money.py": pyTest},
			new:  map[string]string{"test_money.py": "from money import convert\n\ndef test_eur():\n    try:\n        assert convert(100, 'EUR') == 92\n    except AssertionError:\n        pass\n"},
			want: []string{"test-neutered test_money.py:6"}},
		{name: "python: a conftest hook rewriting failed reports",
			old:  map[string]string{"test_money.py": pyTest},
			new:  map[string]string{"test_money.py": pyTest, "conftest.py": "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    rep = (yield).get_result()\n    if rep.failed:\n        rep.outcome = 'passed'\n"},
			want: []string{"test-neutered conftest.py:7"}},
		{name: "python: assertEqual made a no-op in tests/__init__.py",
			old:  map[string]string{"tests/test_money.py": pyTest},
			new:  map[string]string{"tests/test_money.py": pyTest, "tests/__init__.py": "import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n"},
			want: []string{"test-neutered tests/__init__.py:2"}},
		{name: "js: expect.extend replacing toBe in a setup file",
			old:  map[string]string{"test/money.test.js": jsTest},
			new:  map[string]string{"test/money.test.js": jsTest, "vitest.setup.js": "expect.extend({ toBe: () => ({ pass: true, message: () => '' }) })\n"},
			want: []string{"test-neutered vitest.setup.js:1"}},
		{name: "js: an expectation in a try with an empty catch",
			old:  map[string]string{"test/money.test.js": jsTest},
			new:  map[string]string{"test/money.test.js": "import { fee } from '../src/money.js'\ntest('fee', () => { try { expect(fee(250)).toBe(7) } catch {} })\n"},
			want: []string{"test-neutered test/money.test.js:2"}},
		// Twins.
		{name: "python: a test of an assertion helper that records the failure",
			old: map[string]string{"test_check.py": "def test_x():\n    pass\n"},
			new: map[string]string{"test_check.py": "def test_x():\n    failed = False\n    try:\n        check(1, 2)\n    except AssertionError:\n        failed = True\n    assert failed\n"}},
		{name: "js: a custom matcher of a new name",
			old: map[string]string{"test/money.test.js": jsTest},
			new: map[string]string{"test/money.test.js": jsTest, "vitest.setup.js": "expect.extend({ toBeMoney: (v) => ({ pass: typeof v === 'number', message: () => '' }) })\n"}},
		{name: "js: cleanup with an empty catch",
			old: map[string]string{"test/money.test.js": jsTest},
			new: map[string]string{"test/money.test.js": jsTest + "afterEach(() => { try { fs.rmSync(dir) } catch {} })\n"}},
	})
}
