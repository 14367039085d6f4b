package integrity

import (
	"strings"
	"testing"
)

const goTest = `package x

import (
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if add(1, 2) != 3 {
		t.Errorf("wrong")
	}
}

func TestSub(t *testing.T) {
	if sub(3, 2) != 1 {
		t.Fatal("wrong")
	}
}
`

const goTestWithoutSub = `package x

import (
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if add(1, 2) != 3 {
		t.Errorf("wrong")
	}
}
`

func TestTestRules(t *testing.T) {
	runCases(t, []detectCase{
		{name: "go test file deleted", old: map[string]string{"x_test.go": goTest}, new: map[string]string{},
			want: []string{"test-file-removed x_test.go:0"}},
		// vitest runs *.bench.ts only under `vitest bench`: a benchmark is no test, wherever it is.
		{name: "a vitest benchmark under test/ deleted", old: map[string]string{"test/hookable.bench.ts": "bench('x', () => {})\n"}, new: map[string]string{}},
		{name: "a test file renamed to a benchmark", old: map[string]string{"test/a.test.ts": "it('adds', () => { expect(1).toBe(1) })\n"},
			new: map[string]string{"test/a.bench.ts": "it('adds', () => { expect(1).toBe(1) })\n"}, renames: map[string]string{"test/a.test.ts": "test/a.bench.ts"},
			want: []string{"test-file-removed test/a.bench.ts:0"}},
		{name: "go test file renamed, still a test", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"y_test.go": goTest}, renames: map[string]string{"x_test.go": "y_test.go"}},
		{name: "go test file moved by hand: deleted and created elsewhere", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"sub/x_test.go": goTest}},
		{name: "go test file renamed out of the pattern", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_test.go.bak": goTest}, renames: map[string]string{"x_test.go": "x_test.go.bak"},
			want: []string{"test-file-removed x_test.go.bak:0"}},
		{name: "go test function removed", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"x_test.go": goTestWithoutSub},
			want: []string{"assertions-dropped x_test.go:13", "test-removed x_test.go:13"}},
		{name: "go test function moved to another file", old: map[string]string{"x_test.go": goTest, "y_test.go": "package x\n"},
			new: map[string]string{"x_test.go": goTestWithoutSub, "y_test.go": "package x\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif sub(3, 2) != 1 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"}},
		{name: "go test function renamed in place",
			old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_test.go": replace(goTest, "TestSub", "TestSubtract")}},
		{name: "t.Skip added", old: map[string]string{"x_test.go": goTest},
			new:  map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"flaky\")\n")},
			want: []string{"test-skipped x_test.go:15"}},
		{name: "a skip under an environment probe runs wherever it can", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tif _, err := exec.LookPath(\"git\"); err != nil {\n\t\tt.Skip(\"no git\")\n\t}\n")}},
		{name: "a skip under a condition of the code's own is reported", old: map[string]string{"x_test.go": goTest},
			new:  map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tif os.Getenv(\"CI\") == \"\" {\n\t\tt.Skip(\"only on CI\")\n\t}\n")},
			want: []string{"test-skipped x_test.go:16"}},
		{name: "t.Skip moved with its test stays quiet",
			old: map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tt.Skip(\"flaky\")\n")},
			new: map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\n\tt.Skip(\"flaky\")\n")}},
		{name: "a skip in a string is no skip", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_test.go": goTest + "\nvar s = \"t.Skip(\"\n"}},
		{name: "js .only added", old: map[string]string{"a.test.ts": "it('adds', () => {\n  expect(add(1, 2)).toBe(3)\n})\n"},
			new:  map[string]string{"a.test.ts": "it.only('adds', () => {\n  expect(add(1, 2)).toBe(3)\n})\n"},
			want: []string{"test-focused a.test.ts:1"}},
		{name: "js it.skip and xit added", old: map[string]string{"a.spec.js": "it('a', () => { expect(1).toBe(1) })\ntest('b', () => { expect(2).toBe(2) })\n"},
			new:  map[string]string{"a.spec.js": "it.skip('a', () => { expect(1).toBe(1) })\nxit('b', () => { expect(2).toBe(2) })\n"},
			want: []string{"test-skipped a.spec.js:1", "test-skipped a.spec.js:2"}},
		{name: "js test.todo and describe.skip added", old: map[string]string{"a.test.js": "describe('x', () => {\n})\n"},
			new:  map[string]string{"a.test.js": "describe.skip('x', () => {\n  test.todo('later')\n})\n"},
			want: []string{"test-skipped a.test.js:1", "test-skipped a.test.js:2"}},
		{name: "js test removed", old: map[string]string{"a.test.js": "it('a', () => {})\nit('b', () => {})\n"},
			new:  map[string]string{"a.test.js": "it('a', () => {})\n"},
			want: []string{"test-removed a.test.js:2"}},
		{name: "js test renamed (description edited)", old: map[string]string{"a.test.js": "it('adds two', () => {})\n"},
			new: map[string]string{"a.test.js": "it('adds two numbers', () => {})\n"}},
		{name: "python skip decorator added", old: map[string]string{"tests/test_a.py": "def test_a():\n    assert a() == 1\n"},
			new:  map[string]string{"tests/test_a.py": "import pytest\n\n@pytest.mark.skip(reason='later')\ndef test_a():\n    assert a() == 1\n"},
			want: []string{"test-skipped tests/test_a.py:3"}},
		{name: "python pytest.skip call added", old: map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n"},
			new:  map[string]string{"test_a.py": "def test_a():\n    pytest.skip('no')\n    assert a() == 1\n"},
			want: []string{"test-skipped test_a.py:2"}},
		{name: "python unittest skip", old: map[string]string{"a_test.py": "class T:\n    def test_a(self):\n        self.assertEqual(a(), 1)\n"},
			new:  map[string]string{"a_test.py": "class T:\n    @unittest.skip('x')\n    def test_a(self):\n        self.assertEqual(a(), 1)\n"},
			want: []string{"test-skipped a_test.py:2"}},
		{name: "python test removed and assertions dropped", old: map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n\ndef test_b():\n    assert b() == 2\n"},
			new:  map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n"},
			want: []string{"assertions-dropped test_a.py:3", "test-removed test_a.py:3"}},
		{name: "python assertion dropped", old: map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n    assert a() != 2\n"},
			new:  map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n"},
			want: []string{"assertions-dropped test_a.py:3"}},
		{name: "assertions moved between test files", old: map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n    assert a() != 2\n", "test_b.py": "def test_b():\n    pass\n"},
			new: map[string]string{"test_a.py": "def test_a():\n    assert a() == 1\n", "test_b.py": "def test_b():\n    assert a() != 2\n"}},
		{name: "rust #[ignore] added", old: map[string]string{"src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n"},
			new:  map[string]string{"src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n"},
			want: []string{"test-skipped src/lib.rs:4"}},
		{name: "rust #[test] attribute removed from a fn that stays", old: map[string]string{"src/lib.rs": "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n"},
			new:  map[string]string{"src/lib.rs": "#[cfg(test)]\nmod tests {\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n"},
			want: []string{"test-removed src/lib.rs:3"}},
		{name: "rust test fn removed", old: map[string]string{"tests/it.rs": "#[test]\nfn a() {\n    assert!(true);\n}\n\n#[test]\nfn b() {\n    assert!(ok());\n}\n"},
			new:  map[string]string{"tests/it.rs": "#[test]\nfn a() {\n    assert!(true);\n}\n"},
			want: []string{"assertions-dropped tests/it.rs:5", "test-removed tests/it.rs:5"}},
		{name: "rust #[test] to #[tokio::test] is no removal", old: map[string]string{"tests/it.rs": "#[test]\nfn a() {\n    assert!(true);\n}\n"},
			new: map[string]string{"tests/it.rs": "#[tokio::test]\nasync fn a() {\n    assert!(true);\n}\n"}},
		{name: "a new test file is honest", old: map[string]string{}, new: map[string]string{"x_test.go": goTest}},
		{name: "test code in vendor is not ours", old: map[string]string{"vendor/x/x_test.go": goTest}, new: map[string]string{}},
	})
}

func replace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

func TestSuppressions(t *testing.T) {
	runCases(t, []detectCase{
		{name: "go nolint added", old: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg()\n}\n"},
			new:  map[string]string{"a.go": "package a\n\nfunc f() {\n\tg() //nolint:errcheck\n}\n"},
			want: []string{"suppression-added a.go:4"}},
		{name: "go nolint kept while the code on its line changes", old: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg() //nolint:errcheck\n}\n"},
			new: map[string]string{"a.go": "package a\n\nfunc f() {\n\th() //nolint:errcheck\n}\n"}},
		{name: "go nolint moved to another file", old: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg() //nolint:errcheck\n}\n", "b.go": "package a\n"},
			new: map[string]string{"a.go": "package a\n", "b.go": "package a\n\nfunc f() {\n\tg() //nolint:errcheck\n}\n"}},
		{name: "go lint:ignore and nosec", old: map[string]string{"a.go": "package a\n"},
			new:  map[string]string{"a.go": "package a\n\n//lint:ignore SA1019 old api\nvar x = y // #nosec G101\n"},
			want: []string{"suppression-added a.go:3", "suppression-added a.go:4"}},
		{name: "nolint inside a string is data", old: map[string]string{"a.go": "package a\n"},
			new: map[string]string{"a.go": "package a\n\nvar marker = \"//nolint\"\n"}},
		{name: "eslint-disable and ts-ignore", old: map[string]string{"src/a.ts": "const a = 1\n"},
			new:  map[string]string{"src/a.ts": "// eslint-disable-next-line no-console\nconsole.log(a)\n// @ts-ignore\nconst a = 1\n/* istanbul ignore next */\n"},
			want: []string{"suppression-added src/a.ts:1", "suppression-added src/a.ts:3", "suppression-added src/a.ts:5"}},
		{name: "ts-expect-error and ts-nocheck", old: map[string]string{"a.ts": "x\n"},
			new:  map[string]string{"a.ts": "// @ts-nocheck\nx\n// @ts-expect-error\ny\n"},
			want: []string{"suppression-added a.ts:1", "suppression-added a.ts:3"}},
		{name: "python noqa type ignore pylint pragma", old: map[string]string{"a.py": "import os\n"},
			new:  map[string]string{"a.py": "import os  # noqa: F401\nx = f()  # type: ignore[attr]\n# pylint: disable=invalid-name\nif x:  # pragma: no cover\n    pass\n"},
			want: []string{"suppression-added a.py:1", "suppression-added a.py:2", "suppression-added a.py:3", "suppression-added a.py:4"}},
		{name: "rust allow", old: map[string]string{"src/lib.rs": "fn a() {}\n"},
			new:  map[string]string{"src/lib.rs": "#[allow(dead_code)]\nfn a() {}\n"},
			want: []string{"suppression-added src/lib.rs:1"}},
		{name: "a comment in a markdown file is not code", old: map[string]string{"README.md": "x\n"},
			new: map[string]string{"README.md": "x\n\n    g() //nolint\n"}},
		// A suppression narrowed to fewer linters suppresses less (cobra 75790e48fb dropped golint
		// from its nolint lists when golangci-lint v2 removed it); one widened suppresses more.
		{name: "go nolint narrowed", old: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg() //nolint:golint,staticcheck // old api\n}\n"},
			new: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg() //nolint:staticcheck // old api\n}\n"}},
		{name: "go bare nolint narrowed to one linter", old: map[string]string{"a.go": "package a\n\nvar x = y //nolint\n"},
			new: map[string]string{"a.go": "package a\n\nvar x = y //nolint:gosec\n"}},
		{name: "a bare nolint removed elsewhere excuses no narrower one here", old: map[string]string{"a.go": "package a\n\nvar x = y //nolint\n", "b.go": "package a\n\nvar z = w\n"},
			new:  map[string]string{"a.go": "package a\n", "b.go": "package a\n\nvar z = w //nolint:gosec\n"},
			want: []string{"suppression-added b.go:3"}},
		{name: "go nolint widened", old: map[string]string{"a.go": "package a\n\nvar x = y //nolint:gosec\n"},
			new:  map[string]string{"a.go": "package a\n\nvar x = y //nolint:gosec,errcheck\n"},
			want: []string{"suppression-added a.go:3"}},
		{name: "go nolint made bare", old: map[string]string{"a.go": "package a\n\nvar x = y //nolint:gosec\n"},
			new:  map[string]string{"a.go": "package a\n\nvar x = y //nolint\n"},
			want: []string{"suppression-added a.go:3"}},
		{name: "eslint rule list narrowed", old: map[string]string{"a.js": "// eslint-disable-next-line no-console, no-undef\nconsole.log(a)\n"},
			new: map[string]string{"a.js": "// eslint-disable-next-line no-console\nconsole.log(a)\n"}},
		{name: "noqa narrowed, then made bare", old: map[string]string{"a.py": "import os  # noqa: F401,E501\nimport re  # noqa: F401\n"},
			new:  map[string]string{"a.py": "import os  # noqa: F401\nimport re  # noqa\n"},
			want: []string{"suppression-added a.py:2"}},
		{name: "type ignore with its code dropped is wider", old: map[string]string{"a.py": "x = f()  # type: ignore[attr]\n"},
			new:  map[string]string{"a.py": "x = f()  # type: ignore\n"},
			want: []string{"suppression-added a.py:1"}},
	})
}
