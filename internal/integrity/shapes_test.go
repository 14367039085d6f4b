package integrity

import (
	"runtime"
	"testing"
)

// elsewhere is an operating system the tests do not run on: a constraint naming it excludes a
// file here, wherever "here" is.
var elsewhere = map[bool]string{true: "linux", false: "windows"}[runtime.GOOS == "windows"]

// Go files the go tool stops building where the gates run: their tests stop running.
func TestGoFilesThatStopBuilding(t *testing.T) {
	constrained := func(line string) map[string]string {
		return map[string]string{"x_test.go": line + "\n\n" + goTest}
	}
	runCases(t, []detectCase{
		{name: "go:build ignore added to a test file", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build ignore"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "go:build never added", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build never"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "+build ignore added", old: map[string]string{"x_test.go": goTest}, new: constrained("// +build ignore"),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "a constraint excluding this platform", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build " + elsewhere),
			want: []string{"test-skipped x_test.go:1"}},
		{name: "a tag no gate passes", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build integration"),
			want: []string{"test-skipped x_test.go:1"}},
		// Twins: the file still builds where the gates run.
		{name: "a tag a gate passes", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build integration"),
			commands: []string{"go test -tags=integration,slow ./..."}},
		{name: "narrowed to this platform: it still runs here", old: map[string]string{"x_test.go": goTest}, new: constrained("//go:build " + runtime.GOOS)},
		{name: "a new test file behind a tag weakens no test", old: map[string]string{}, new: map[string]string{"it_test.go": "//go:build integration\n\n" + goTest}},
		{name: "a file excluded at the base stays excluded", old: constrained("//go:build ignore"), new: constrained("//go:build ignore && never")},
		{name: "constraint removed", old: constrained("//go:build ignore"), new: map[string]string{"x_test.go": goTest}},
		{name: "renamed for another platform", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_" + elsewhere + "_test.go": goTest}, renames: map[string]string{"x_test.go": "x_" + elsewhere + "_test.go"},
			want: []string{"test-file-removed x_" + elsewhere + "_test.go:0"}},
		{name: "renamed for this platform", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_" + runtime.GOOS + "_test.go": goTest}, renames: map[string]string{"x_test.go": "x_" + runtime.GOOS + "_test.go"}},
		{name: "tests moved by hand into an ignored file", old: map[string]string{"x_test.go": goTest},
			new:  map[string]string{"y_test.go": "//go:build ignore\n\n" + goTest},
			want: []string{"test-file-removed x_test.go:0"}},
	})
}

// Go skips the directories whose name starts with _ or . and testdata: a test file moved there
// stops running.
func TestGoTestFilesMovedWhereGoDoesNotLook(t *testing.T) {
	moved := func(to string) detectCase {
		return detectCase{name: "moved to " + to, old: map[string]string{"x_test.go": goTest}, new: map[string]string{to: goTest},
			renames: map[string]string{"x_test.go": to}, want: []string{"test-file-removed " + to + ":0"}}
	}
	byHand := func(to string) detectCase {
		return detectCase{name: "moved by hand to " + to, old: map[string]string{"x_test.go": goTest}, new: map[string]string{to: goTest + "\n// moved\n"},
			want: []string{"test-file-removed x_test.go:0"}}
	}
	runCases(t, []detectCase{
		moved("_attic/x_test.go"), moved("pkg/.old/x_test.go"), moved("testdata/x_test.go"),
		byHand("_attic/x_test.go"), byHand("testdata/x_test.go"),
		{name: "moved to another package directory", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"pkg/other/x_test.go": goTest},
			renames: map[string]string{"x_test.go": "pkg/other/x_test.go"}},
		{name: "a directory whose name only contains an underscore", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"my_pkg/x_test.go": goTest},
			renames: map[string]string{"x_test.go": "my_pkg/x_test.go"}},
	})
}

// A skip guarded by a condition that holds where the gates run skips the test there; a guard
// that holds only elsewhere is an environment probe, and a guard on a test the change adds
// weakens nothing.
func TestGuardedSkips(t *testing.T) {
	guarded := func(cond string) map[string]string {
		return map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tif "+cond+" {\n\t\tt.Skip(\"not here\")\n\t}\n")}
	}
	withNew := func(body string) map[string]string {
		return map[string]string{"x_test.go": goTest + "\nfunc TestNew(t *testing.T) {\n" + body + "\tif add(2, 2) != 4 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n"}
	}
	old := map[string]string{"x_test.go": goTest}
	runCases(t, []detectCase{
		{name: "skipped unless on another OS: skips here", old: old, new: guarded(`runtime.GOOS != "` + elsewhere + `"`),
			want: []string{"test-skipped x_test.go:16"}},
		{name: "skipped on this OS", old: old, new: guarded(`runtime.GOOS == "` + runtime.GOOS + `"`),
			want: []string{"test-skipped x_test.go:16"}},
		{name: "skipped on this architecture", old: old, new: guarded(`runtime.GOARCH == "` + runtime.GOARCH + `"`),
			want: []string{"test-skipped x_test.go:16"}},
		{name: "another OS or a condition of the code's own", old: old, new: guarded(`runtime.GOOS == "` + elsewhere + `" || os.Getenv("X") == ""`),
			want: []string{"test-skipped x_test.go:16"}},
		{name: "skipped unless in short mode, which no gate asks for", old: old, new: guarded(`!testing.Short()`),
			want: []string{"test-skipped x_test.go:16"}},
		{name: "skipped in short mode, which a gate asks for", old: old, new: guarded(`testing.Short()`), commands: []string{"go test -short ./..."},
			want: []string{"test-skipped x_test.go:16"}},
		// Twins: the guard does not hold where the gates run.
		{name: "skipped on another OS", old: old, new: guarded(`runtime.GOOS == "` + elsewhere + `"`)},
		{name: "skipped in short mode", old: old, new: guarded(`testing.Short()`)},
		{name: "another OS and anything", old: old, new: guarded(`runtime.GOOS == "` + elsewhere + `" && os.Getenv("X") == ""`)},
		{name: "a probe of the machine", old: old, new: guarded(`err != nil`)},
		{name: "a probe with an init statement", old: old, new: guarded(`_, err := exec.LookPath("git"); err != nil`)},
		// A guard on a test the change adds weakens nothing.
		{name: "a new test skipped on this OS", old: old, new: withNew("\tif runtime.GOOS != \"" + elsewhere + "\" {\n\t\tt.Skip(\"x\")\n\t}\n")},
		{name: "a new test skipped by a condition of its own", old: old, new: withNew("\tif os.Getenv(\"CI\") == \"\" {\n\t\tt.Skip(\"x\")\n\t}\n")},
		{name: "a new test skipped unconditionally", old: old, new: withNew("\tt.Skip(\"later\")\n"),
			want: []string{"test-skipped x_test.go:21"}},
		{name: "a test renamed and guarded is no new test", old: old,
			new:  map[string]string{"x_test.go": replace(guarded(`runtime.GOOS != "` + elsewhere + `"`)["x_test.go"], "TestSub", "TestSubtract")},
			want: []string{"test-skipped x_test.go:16"}},
	})
}

const pyTests = `import pytest


def test_a():
    assert a() == 1
`

// pytest: a conditional skip on a test the change adds weakens nothing; on an existing test it is
// a skip as before.
func TestPythonGuardedSkips(t *testing.T) {
	old := map[string]string{"tests/test_a.py": pyTests}
	newTest := func(lines string) map[string]string {
		return map[string]string{"tests/test_a.py": pyTests + "\n\n" + lines}
	}
	runCases(t, []detectCase{
		{name: "skipif on an existing test", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a", "@pytest.mark.skipif(WIN, reason=\"x\")\ndef test_a")},
			want: []string{"test-skipped tests/test_a.py:4"}},
		{name: "skipif on a new test, under other decorators", old: old,
			new: newTest("@pytest.mark.skipif(WIN, reason=\"Different behavior on windows.\")\n@pytest.mark.parametrize(\n    (\"x\", \"y\"),\n    [(1, 2)],\n)\ndef test_b(x, y):\n    assert x < y\n")},
		{name: "xfail with a condition on a new test", old: old, new: newTest("@pytest.mark.xfail(WIN and not PY2, reason=\"x\")\ndef test_b():\n    assert b()\n")},
		{name: "unittest skipIf on a new method", old: map[string]string{"a_test.py": "class T:\n    def test_a(self):\n        self.assertEqual(a(), 1)\n"},
			new: map[string]string{"a_test.py": "class T:\n    def test_a(self):\n        self.assertEqual(a(), 1)\n\n    @unittest.skipIf(WIN, 'x')\n    def test_b(self):\n        self.assertEqual(b(), 1)\n"}},
		{name: "pytest.skip under an if in a new test", old: old, new: newTest("def test_b():\n    if WIN:\n        pytest.skip(\"x\")\n    assert b()\n")},
		{name: "an unconditional skip on a new test", old: old, new: newTest("@pytest.mark.skip(reason=\"later\")\ndef test_b():\n    assert b()\n"),
			want: []string{"test-skipped tests/test_a.py:8"}},
		{name: "xfail without a condition on a new test", old: old, new: newTest("@pytest.mark.xfail(reason=\"bug\")\ndef test_b():\n    assert b()\n"),
			want: []string{"test-skipped tests/test_a.py:8"}},
		// A file that loses one test and gains several: the removed test may be renamed to one
		// of them (the one whose name is most like its own), not to every one.
		{name: "skipif on a new test in a file that lost another", old: map[string]string{"tests/test_testing.py": pyTestingBefore},
			new: map[string]string{"tests/test_testing.py": pyTestingAfter}},
		{name: "a test renamed and guarded in a file that gained another", old: old,
			new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a():", "@pytest.mark.skipif(sys.platform != \"win32\", reason=\"x\")\ndef test_renamed():") +
				"\n\ndef test_b():\n    assert b()\n"},
			want: []string{"test-skipped tests/test_a.py:4"}},
		// A skip whose condition does not hold where the gates run lets the test run here, as in
		// Go; the condition's names are read where the module defines them.
		{name: "a skip for another platform and more on an existing test", old: pyCompat(pyUtilsBefore), new: pyCompat(pyUtilsAfter)},
		{name: "a skip's condition rewritten, still another platform's", old: pyCompat(pyEditBefore), new: pyCompat(pyEditAfter)},
		{name: "skipUnless this platform", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a", "@unittest.skipUnless(sys.platform == \""+pyHere+"\", \"x\")\ndef test_a")}},
		{name: "pytest.skip under an if for another platform", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "    assert a() == 1\n", "    if os.name == \""+pyOtherOSName+"\":\n        pytest.skip(\"x\")\n    assert a() == 1\n")}},
		// Twins: the condition holds here, or cannot be told.
		{name: "a skip for this platform on an existing test", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a", "@pytest.mark.skipif(sys.platform == \""+pyHere+"\", reason=\"x\")\ndef test_a")},
			want: []string{"test-skipped tests/test_a.py:4"}},
		{name: "a skip for another platform or anything", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a", "@pytest.mark.skipif(sys.platform == \""+pyElsewhere+"\" or SLOW, reason=\"x\")\ndef test_a")},
			want: []string{"test-skipped tests/test_a.py:4"}},
		{name: "skipUnless another platform", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "def test_a", "@unittest.skipUnless(sys.platform == \""+pyElsewhere+"\", \"x\")\ndef test_a")},
			want: []string{"test-skipped tests/test_a.py:4"}},
		{name: "a name the module sets again under a condition", old: pyCompat(pyUtilsBefore),
			new:  map[string]string{"tests/test_utils.py": pyUtilsAfter, "src/click/_compat.py": pyCompatSource + "if FORCE:\n    OTHER = True\n"},
			want: []string{"test-skipped tests/test_utils.py:10"}},
		{name: "a name the module sets again by an augmented assignment", old: pyCompat(pyUtilsBefore),
			new:  map[string]string{"tests/test_utils.py": pyUtilsAfter, "src/click/_compat.py": pyCompatSource + "OTHER |= FORCE\n"},
			want: []string{"test-skipped tests/test_utils.py:10"}},
		{name: "a name a function of the module sets again", old: pyCompat(pyUtilsBefore),
			new:  map[string]string{"tests/test_utils.py": pyUtilsAfter, "src/click/_compat.py": pyCompatSource + "\n\ndef force():\n    global OTHER\n    OTHER = True\n\n\nforce()\n"},
			want: []string{"test-skipped tests/test_utils.py:10"}},
		{name: "modules importing a name from each other", old: pyCompat(pyUtilsBefore),
			new:  map[string]string{"tests/test_utils.py": pyUtilsAfter, "src/click/_compat.py": "from click.other import OTHER\n", "src/click/other.py": "from click._compat import OTHER\n"},
			want: []string{"test-skipped tests/test_utils.py:10"}},
		{name: "pytest.skip under an if in an existing test", old: old, new: map[string]string{"tests/test_a.py": replace(pyTests, "    assert a() == 1\n", "    if WIN:\n        pytest.skip(\"x\")\n    assert a() == 1\n")},
			want: []string{"test-skipped tests/test_a.py:6"}},
	})
}

// pyHere and pyElsewhere are sys.platform where the tests run and on a system they do not run
// on; pyOtherOSName is os.name there.
var (
	pyHere        = map[string]string{"windows": "win32", "darwin": "darwin"}[runtime.GOOS]
	pyElsewhere   = map[bool]string{true: "win32", false: "darwin"}[runtime.GOOS != "windows"]
	pyOtherOSName = map[bool]string{true: "nt", false: "posix"}[runtime.GOOS != "windows"]
)

func init() {
	if pyHere == "" {
		pyHere = runtime.GOOS
	}
}

// pyCompatSource defines the platform names a project's tests import (trimmed from a real
// project): OTHER is true on a system the tests do not run on, WIN on Windows.
var pyCompatSource = "import sys\n\nCYGWIN = sys.platform.startswith(\"cygwin\")\nWIN = sys.platform.startswith(\"win\")\nOTHER = sys.platform == \"" + pyElsewhere + "\"\n"

func pyCompat(tests string) map[string]string {
	return map[string]string{"src/click/_compat.py": pyCompatSource, "tests/test_utils.py": tests}
}

const pyUtilsBefore = `import sys

import pytest

from click._compat import WIN


@pytest.mark.skipif(WIN, reason="Different behavior on windows.")
@pytest.mark.parametrize(
    "pager_cmd", ["cat", "cat ", " cat ", "less", " less", " less "]
)
def test_echo_via_pager(monkeypatch, pager_cmd):
    monkeypatch.setattr(click._termui_impl, "OTHER", True)
    assert pager(pager_cmd)
`

const pyUtilsAfter = `import sys

import pytest

from click._compat import OTHER
from click._compat import WIN


@pytest.mark.skipif(WIN, reason="Different behavior on windows.")
@pytest.mark.skipif(
    OTHER and sys.version_info >= (3, 13) and sys._is_gil_enabled(),
    reason="Generator exception tests are flaky in Python 3.14t there.",
)
@pytest.mark.parametrize(
    "pager_cmd", ["cat", "cat ", " cat ", "less", " less", " less "]
)
def test_echo_via_pager(monkeypatch, pager_cmd):
    monkeypatch.setattr(click._termui_impl, "OTHER", True)
    assert pager(pager_cmd)
`

var pyEditBefore = `import platform

import pytest

import click


@pytest.mark.skipif(platform.system() == "` + map[bool]string{true: "Windows", false: "Darwin"}[runtime.GOOS != "windows"] + `", reason="No sed there.")
def test_fast_edit(runner):
    result = click.edit("a\nb", editor="sed -i~ 's/$/Test/'")
    assert result == "aTest\nbTest\n"
`

var pyEditAfter = replace(replace(pyEditBefore, "import click\n", "import click\nfrom click._compat import OTHER\n"),
	`@pytest.mark.skipif(platform.system() == "`+map[bool]string{true: "Windows", false: "Darwin"}[runtime.GOOS != "windows"]+`", reason="No sed there.")`,
	`@pytest.mark.skipif(OTHER, reason="No sed there.")`)

// A change that replaced one test with several, one of them for Windows only (trimmed from a
// real project's history).
const pyTestingBefore = `import sys

import pytest


def test_output(runner):
    assert runner.invoke(cli).output == "x\\n"


def test_faulthandler_enable(runner):
    """faulthandler.enable() inside CliRunner should not crash."""
    result = runner.invoke(cli)
    assert result.exit_code == 0


def test_isolation(runner):
    assert runner.isolation()
`

const pyTestingAfter = `import sys

import pytest


def test_output(runner):
    assert runner.invoke(cli).output == "x\\n"


needs_fd_capture = pytest.mark.skipif(
    sys.platform == "win32",
    reason="fd capture not supported on Windows",
)


def test_capture_invalid_mode():
    """Invalid capture mode raises ValueError."""
    with pytest.raises(ValueError, match="capture"):
        CliRunner(capture="invalid")


@pytest.mark.skipif(sys.platform != "win32", reason="Windows-only test")
def test_capture_fd_windows_error():
    """fd capture raises ValueError on Windows."""
    with pytest.raises(ValueError, match="not supported on Windows"):
        CliRunner(capture="fd")


@needs_fd_capture
def test_capture_fd_faulthandler(runner):
    """faulthandler.enable() with capture="fd" should not crash."""
    result = runner.invoke(cli, capture="fd")
    assert result.exit_code == 0


def test_isolation(runner):
    assert runner.isolation()
`

// A test made unable to fail while it stays: a return before its first statement, a check whose
// condition is constant false.
func TestNeuteredTests(t *testing.T) {
	old := map[string]string{"x_test.go": goTest}
	goNew := func(from, to string) map[string]string {
		return map[string]string{"x_test.go": replace(goTest, from, to)}
	}
	const subtests = "package x\n\nimport \"testing\"\n\nfunc TestAll(t *testing.T) {\n\tt.Run(\"add\", func(t *testing.T) {\n\t\tif add(1, 2) != 3 {\n\t\t\tt.Error(\"wrong\")\n\t\t}\n\t})\n}\n"
	const jsTest = "it('adds', () => {\n  expect(add(1, 2)).toBe(3)\n})\n"
	runCases(t, []detectCase{
		{name: "go return before the first statement", old: old, new: goNew("func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\treturn\n"),
			want: []string{"test-neutered x_test.go:15"}},
		{name: "go return first in a subtest", old: map[string]string{"x_test.go": subtests},
			new:  map[string]string{"x_test.go": replace(subtests, "func(t *testing.T) {\n", "func(t *testing.T) {\n\t\treturn\n")},
			want: []string{"test-neutered x_test.go:7"}},
		{name: "go condition made constant false", old: old, new: goNew("if sub(3, 2) != 1 {", "if false && sub(3, 2) != 1 {"),
			want: []string{"test-neutered x_test.go:15"}},
		{name: "go condition made constant false at its end", old: old, new: goNew("if sub(3, 2) != 1 {", "if sub(3, 2) != 1 && false {"),
			want: []string{"test-neutered x_test.go:15"}},
		{name: "python return before the first statement", old: map[string]string{"tests/test_a.py": pyTests},
			new:  map[string]string{"tests/test_a.py": replace(pyTests, "def test_a():\n", "def test_a():\n    \"\"\"Adds.\"\"\"\n    return\n")},
			want: []string{"test-neutered tests/test_a.py:6"}},
		{name: "python check under if False", old: map[string]string{"tests/test_a.py": pyTests},
			new:  map[string]string{"tests/test_a.py": replace(pyTests, "    assert a() == 1\n", "    if False:\n        assert a() == 1\n")},
			want: []string{"test-neutered tests/test_a.py:5"}},
		{name: "js return before the first statement", old: map[string]string{"a.test.js": jsTest},
			new:  map[string]string{"a.test.js": replace(jsTest, "() => {\n", "() => {\n  return;\n")},
			want: []string{"test-neutered a.test.js:2"}},
		// Twins.
		{name: "an early return after real work", old: old, new: goNew("\tif sub(3, 2) != 1 {\n", "\tif sub(3, 2) == 0 {\n\t\treturn\n\t}\n\tif sub(3, 2) != 1 {\n")},
		{name: "a return first in a test the change adds", old: old, new: map[string]string{"x_test.go": goTest + "\nfunc TestNew(t *testing.T) {\n\treturn\n}\n"}},
		{name: "a return first in a helper", old: old, new: map[string]string{"x_test.go": goTest + "\nfunc helper() {\n\treturn\n}\n"}},
		{name: "if false in code that is not a test", old: map[string]string{"a.go": "package a\n\nfunc f() {\n\tg()\n}\n"},
			new: map[string]string{"a.go": "package a\n\nfunc f() {\n\tif false && debug {\n\t\tpanic(\"x\")\n\t}\n\tg()\n}\n"}},
		{name: "if false around no check", old: old, new: goNew("func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tif false {\n\t\tt.Log(\"debug\")\n\t}\n")},
		{name: "false or a condition is no constant", old: old, new: goNew("if sub(3, 2) != 1 {", "if false || sub(3, 2) != 1 {")},
	})
}

// A TestMain that keeps the test binary from failing: it never calls m.Run, or exits 0 whatever
// m.Run returned. Since Go 1.15 a TestMain that returns passes m.Run's result on by itself.
func TestNeuteredTestMain(t *testing.T) {
	main := func(body string) map[string]string {
		return map[string]string{"main_test.go": "package x\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n" + body + "}\n"}
	}
	old := main("\tos.Exit(m.Run())\n")
	runCases(t, []detectCase{
		{name: "exits 0 after m.Run", old: old, new: main("\tm.Run()\n\tos.Exit(0)\n"), want: []string{"test-neutered main_test.go:10"}},
		{name: "keeps the code and exits 0", old: old, new: main("\tcode := m.Run()\n\t_ = code\n\tos.Exit(0)\n"), want: []string{"test-neutered main_test.go:11"}},
		{name: "never calls m.Run", old: old, new: main("\tsetup()\n"), want: []string{"test-neutered main_test.go:8"}},
		{name: "a TestMain added that never calls m.Run", old: map[string]string{"main_test.go": "package x\n"},
			new: main("\tsetup()\n"), want: []string{"test-neutered main_test.go:8"}},
		// Twins.
		{name: "os.Exit(m.Run())", old: main("\tsetup()\n\tos.Exit(m.Run())\n"), new: old},
		{name: "code kept for after the cleanup", old: old, new: main("\tcode := m.Run()\n\tcleanup()\n\tos.Exit(code)\n")},
		{name: "returns after m.Run", old: old, new: main("\tm.Run()\n\tteardown()\n")},
		{name: "hands m to a helper that runs it", old: old, new: main("\tos.Exit(testos.RunWithUserState(m))\n")},
		{name: "exits 1 when the setup fails", old: old, new: main("\tif err := setup(); err != nil {\n\t\tos.Exit(1)\n\t}\n\tos.Exit(m.Run())\n")},
		{name: "a defect already at the base", old: main("\tm.Run()\n\tos.Exit(0)\n"), new: main("\tm.Run()\n\tcleanup()\n\tos.Exit(0)\n")},
	})
}

// go env -w writes the go tool's own env file: every later go command, the gates' included, runs
// with it, and no gate's command shows it.
func TestGoEnvWritten(t *testing.T) {
	const wf = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n"
	runCases(t, []detectCase{
		{name: "in a make recipe", old: map[string]string{"Makefile": "test:\n\tgo test ./...\n"},
			new: map[string]string{"Makefile": "test:\n\tgo env -w GOFLAGS=-run=TestZero\n\tgo test ./...\n"}, want: []string{"script-neutered Makefile:2"}},
		{name: "in a shell script", old: map[string]string{"scripts/test.sh": "#!/bin/sh\ngo test ./...\n"},
			new: map[string]string{"scripts/test.sh": "#!/bin/sh\ngo env -w GOFLAGS=-short\ngo test ./...\n"}, want: []string{"script-neutered scripts/test.sh:2"}},
		{name: "in a package script", old: map[string]string{"package.json": "{\n  \"scripts\": {\n    \"test\": \"go test ./...\"\n  }\n}\n"},
			new: map[string]string{"package.json": "{\n  \"scripts\": {\n    \"test\": \"go env -w CGO_ENABLED=0 && go test ./...\"\n  }\n}\n"}, want: []string{"script-neutered package.json:3"}},
		{name: "in a CI step", old: map[string]string{".github/workflows/ci.yml": wf},
			new: map[string]string{".github/workflows/ci.yml": replace(wf, "      - run: go test", "      - run: go env -w GOFLAGS=-count=1 -w GOTOOLCHAIN=local\n      - run: go test")}, want: []string{"script-neutered .github/workflows/ci.yml:6"}},
		// Twins: where modules come from is not what is checked; reading is not writing; a
		// command moved is not new.
		{name: "the module proxy and private modules", old: map[string]string{".github/workflows/ci.yml": wf},
			new: map[string]string{".github/workflows/ci.yml": replace(wf, "      - run: go test", "      - run: go env -w GOPRIVATE=github.com/org/* GONOSUMDB=github.com/org/*\n      - run: go test")}},
		{name: "go env read", old: map[string]string{"Makefile": "test:\n\tgo test ./...\n"},
			new: map[string]string{"Makefile": "test:\n\tgo env GOPATH\n\tgo test ./...\n"}},
		{name: "moved to another target", old: map[string]string{"Makefile": "setup:\n\tgo env -w GOFLAGS=-mod=mod\n\ntest:\n\tgo test ./...\n"},
			new: map[string]string{"Makefile": "test:\n\tgo test ./...\n\nsetup:\n\tgo env -w GOFLAGS=-mod=mod\n"}},
		{name: "in documentation", old: map[string]string{"README.md": "x\n"}, new: map[string]string{"README.md": "x\n\n    go env -w GOFLAGS=-short\n"}},
	})
}

// eslint flat configs are read line by line: every rule on a line counts, not only the first.
func TestEslintFlatRulesOnOneLine(t *testing.T) {
	flat := func(rules string) map[string]string {
		return map[string]string{"eslint.config.mjs": "export default [\n  { rules: { " + rules + " } },\n]\n"}
	}
	runCases(t, []detectCase{
		{name: "a rule turned off beside another", old: flat(`"no-unused-vars": "error", "eqeqeq": "error"`), new: flat(`"no-unused-vars": "error", "eqeqeq": "off"`),
			want: []string{"lint-relaxed eslint.config.mjs:2"}},
		{name: "a numeric level lowered beside a list", old: flat(`eqeqeq: ["error", "always"], curly: 2`), new: flat(`eqeqeq: ["error", "always"], curly: 0`),
			want: []string{"lint-relaxed eslint.config.mjs:2"}},
		{name: "two rules lowered on one line", old: flat(`"a": "error", "b": "error"`), new: flat(`"a": "warn", "b": "off"`),
			want: []string{"lint-relaxed eslint.config.mjs:2", "lint-relaxed eslint.config.mjs:2"}},
		// Twins: an off rule kept while the line changes, and the line split.
		{name: "a rule added beside one already off", old: flat(`"eqeqeq": "off"`), new: flat(`"eqeqeq": "off", "curly": "error"`)},
		{name: "a rule off in a comment", old: flat(`"eqeqeq": "error"`),
			new: map[string]string{"eslint.config.mjs": "export default [\n  { rules: { \"eqeqeq\": \"error\" } },\n  // 'jsdoc/require-param': ['warn', { exemptedBy: ['private'] }],\n  // 'jsdoc/check-tag-names': 0,\n]\n"}},
		{name: "the line split with the same levels", old: flat(`"no-console": "off", "eqeqeq": "error"`),
			new: map[string]string{"eslint.config.mjs": "export default [\n  { rules: {\n    \"no-console\": \"off\",\n    \"eqeqeq\": \"error\",\n  } },\n]\n"}},
	})
}

// A makefile that now reads another one the base did not have: any target can be overridden there.
func TestMakefileIncludes(t *testing.T) {
	const mk = "test:\n\tgo test ./...\n"
	old := map[string]string{"Makefile": mk}
	with := func(line string, extra map[string]string) map[string]string {
		out := map[string]string{"Makefile": mk + "\n" + line + "\n"}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	runCases(t, []detectCase{
		{name: "-include of a local file", old: old, new: with("-include .local.mk", nil), want: []string{"script-neutered Makefile:4"}},
		{name: "sinclude", old: old, new: with("sinclude local.mk", nil), want: []string{"script-neutered Makefile:4"}},
		{name: "include of a file the change adds", old: old, new: with("include override.mk", map[string]string{"override.mk": "test:\n\t@true\n"}),
			want: []string{"script-neutered Makefile:4"}},
		{name: "include of a variable", old: old, new: with("include $(LOCAL)", nil), want: []string{"script-neutered Makefile:4"}},
		{name: "a .mk file's target neutered", old: map[string]string{"mk/test.mk": mk}, new: map[string]string{"mk/test.mk": "test:\n\t@echo ok\n"},
			want: []string{"script-neutered mk/test.mk:1"}},
		// Twins.
		{name: "include of a file the base had", old: map[string]string{"Makefile": mk, "common.mk": "x:\n\ttrue\n"},
			new: with("include common.mk", map[string]string{"common.mk": "x:\n\ttrue\n"})},
		{name: "an include moved", old: map[string]string{"Makefile": "-include .local.mk\n\n" + mk}, new: with("-include .local.mk", nil)},
		{name: "dependency files", old: old, new: with("-include $(OBJS:.o=.d) build/deps.d", nil)},
	})
}

// The command a check runs, narrowed to fewer tests: a test filter, a skip flag, fewer packages
// or paths.
func TestNarrowedTestCommands(t *testing.T) {
	mk := func(recipe string) map[string]string {
		return map[string]string{"Makefile": "test:\n\t" + recipe + "\n"}
	}
	pkg := func(test string) map[string]string {
		return map[string]string{"package.json": "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"test\": \"" + test + "\"\n  }\n}\n"}
	}
	const wf = "jobs:\n  test:\n    steps:\n      - name: Test\n        run: %s\n"
	ci := func(cmd string) map[string]string {
		return map[string]string{".github/workflows/ci.yml": replace(wf, "%s", cmd)}
	}
	narrowed := func(name string, old, new map[string]string, want string) detectCase {
		return detectCase{name: name, old: old, new: new, want: []string{want}}
	}
	honest := func(name string, old, new map[string]string) detectCase {
		return detectCase{name: name, old: old, new: new}
	}
	runCases(t, []detectCase{
		narrowed("go test -run added", mk("go test ./..."), mk("go test -run TestZero ./..."), "tests-excluded Makefile:2"),
		narrowed("go test -skip added", mk("@$(GO) test -race ./..."), mk("@$(GO) test -race -skip=TestDiv ./..."), "tests-excluded Makefile:2"),
		narrowed("go test fewer packages", mk("go test ./..."), mk("go test ./pkg/a"), "tests-excluded Makefile:2"),
		narrowed("go test compiled only", mk("cd sub && go test ./..."), mk("cd sub && go test -c ./..."), "tests-excluded Makefile:2"),
		narrowed("pytest -k added", mk("pytest -q"), mk("pytest -q -k 'not slow'"), "tests-excluded Makefile:2"),
		narrowed("pytest narrower path", mk("python -m pytest tests"), mk("python -m pytest tests/unit"), "tests-excluded Makefile:2"),
		narrowed("node --test narrowed to one file", pkg("node --test"), pkg("node --test test/one.test.js"), "tests-excluded package.json:4"),
		narrowed("jest path ignore added", pkg("jest --ci"), pkg("jest --ci --testPathIgnorePatterns e2e"), "tests-excluded package.json:4"),
		narrowed("vitest filter added", pkg("vitest run"), pkg("vitest run src/a.test.ts"), "tests-excluded package.json:4"),
		narrowed("pytest narrowed to a test", mk("pytest"), mk("pytest tests/test_a.py::test_b"), "tests-excluded Makefile:2"),
		narrowed("cargo test lib only", mk("cargo test --workspace"), mk("cargo test --workspace --lib"), "tests-excluded Makefile:2"),
		narrowed("cargo test skip", mk("cargo test"), mk("cargo test -- --skip slow"), "tests-excluded Makefile:2"),
		narrowed("a CI step narrowed in place", ci("go test ./..."), ci("go test -short ./..."), "tests-excluded .github/workflows/ci.yml:2"),
		{name: "a target a gate runs", old: map[string]string{"Makefile": "unit:\n\tgo test ./...\n"}, new: map[string]string{"Makefile": "unit:\n\tgo test -run X ./...\n"},
			commands: []string{"make unit"}, want: []string{"tests-excluded Makefile:2"}},
		// Twins: flags that select nothing, wider paths, targets no check runs.
		honest("go test flags that select nothing", mk("go test ./..."), mk("go test -race -count=1 -timeout 5m -tags integration ./...")),
		honest("go test one package to all", mk("go test ."), mk("go test ./...")),
		honest("node --test with a reporter", pkg("node --test"), pkg("node --test --test-reporter spec")),
		honest("pytest with coverage", mk("pytest"), mk("pytest --cov src -q")),
		honest("pytest ignoring build output", mk("pytest"), mk("pytest --ignore=build --ignore node_modules")),
		honest("pytest widened", mk("pytest tests/unit"), mk("pytest tests")),
		// Where every test lives, the directories named are all of them: only a file tells.
		honest("pytest given the directories of the tests", mk("py.test"), mk("py.test tests examples")),
		honest("jest with coverage", pkg("jest"), pkg("jest --ci --coverage")),
		honest("a target no check runs", map[string]string{"Makefile": "bench:\n\tgo test -bench . ./...\n"}, map[string]string{"Makefile": "bench:\n\tgo test -run XXX -bench . ./...\n"}),
		honest("a runner replaced is no narrowing", mk("go test ./..."), mk("gotestsum -- ./...")),
	})
}

// pytest's configuration narrowed: options that deselect, test paths narrowed, collection
// patterns lost, directories no longer recursed into.
func TestPytestConfigNarrowed(t *testing.T) {
	pyproject := func(opts string) map[string]string {
		return map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\n" + opts}
	}
	ini := func(file, section, opts string) map[string]string {
		return map[string]string{file: "[" + section + "]\n" + opts}
	}
	runCases(t, []detectCase{
		{name: "-k added to addopts", old: pyproject("addopts = \"-ra\"\n"), new: pyproject("addopts = \"-ra -k 'not test_div'\"\n"),
			want: []string{"tests-excluded pyproject.toml:5"}},
		{name: "--deselect added", old: pyproject("addopts = [\"-ra\"]\n"), new: pyproject("addopts = [\"-ra\", \"--deselect\", \"tests/test_a.py::test_b\"]\n"),
			want: []string{"tests-excluded pyproject.toml:5"}},
		{name: "--ignore of a test directory", old: ini("setup.cfg", "tool:pytest", "addopts = -q\n"), new: ini("setup.cfg", "tool:pytest", "addopts = -q --ignore=tests/integration\n"),
			want: []string{"tests-excluded setup.cfg:2"}},
		{name: "-m added in pytest.ini", old: ini("pytest.ini", "pytest", "addopts = -q\n"), new: ini("pytest.ini", "pytest", "addopts = -q -m \"not slow\"\n"),
			want: []string{"tests-excluded pytest.ini:2"}},
		{name: "testpaths narrowed", old: pyproject("testpaths = [\"tests\"]\n"), new: pyproject("testpaths = [\"tests/unit\"]\n"),
			want: []string{"tests-excluded pyproject.toml:5"}},
		{name: "testpaths set to a file where pytest looked everywhere", old: ini("tox.ini", "pytest", "addopts = -q\n"), new: ini("tox.ini", "pytest", "addopts = -q\ntestpaths = tests/test_a.py\n"),
			want: []string{"tests-excluded tox.ini:3"}},
		{name: "norecursedirs of a test directory", old: ini("tox.ini", "pytest", "norecursedirs = .git build\n"), new: ini("tox.ini", "pytest", "norecursedirs = .git build tests/slow\n"),
			want: []string{"tests-excluded tox.ini:2"}},
		{name: "python_files narrowed", old: pyproject("python_files = [\"test_*.py\", \"check_*.py\"]\n"), new: pyproject("python_files = [\"test_*.py\"]\n"),
			want: []string{"tests-excluded pyproject.toml:5"}},
		{name: "python_files set to one file", old: pyproject("addopts = \"-q\"\n"), new: pyproject("addopts = \"-q\"\npython_files = [\"test_a.py\"]\n"),
			want: []string{"tests-excluded pyproject.toml:6"}},
		// Twins.
		{name: "addopts that select nothing", old: pyproject("addopts = \"-ra\"\n"), new: pyproject("addopts = \"-ra --strict-markers --cov=src -p no:cacheprovider\"\n")},
		{name: "--ignore of build output", old: pyproject("addopts = \"-ra\"\n"), new: pyproject("addopts = \"-ra --ignore=build --ignore-glob=*.egg-info/*\"\n")},
		{name: "testpaths widened", old: pyproject("testpaths = [\"tests\"]\n"), new: pyproject("testpaths = [\"tests\", \"docs\"]\n")},
		{name: "testpaths set to the tests' directory", old: ini("tox.ini", "pytest", "addopts = -q\n"), new: ini("tox.ini", "pytest", "addopts = -q\ntestpaths = tests\n")},
		{name: "norecursedirs of build output", old: ini("tox.ini", "pytest", "addopts = -q\n"), new: ini("tox.ini", "pytest", "addopts = -q\nnorecursedirs = .git .tox build dist node_modules\n")},
		{name: "python_files widened from the default", old: pyproject("addopts = \"-q\"\n"), new: pyproject("addopts = \"-q\"\npython_files = [\"test_*.py\", \"check_*.py\"]\n")},
		{name: "reformatted", old: pyproject("addopts = \"-ra -q\"\ntestpaths = [\"tests\"]\n"), new: pyproject("addopts = [\"-ra\", \"-q\"]\ntestpaths = [\n  \"tests\",\n]\n")},
	})
}

// conftest.py's collect_ignore keeps the files it names from being collected.
func TestConftestCollectIgnore(t *testing.T) {
	const conftest = "import sys\n\ncollect_ignore = [\"setup.py\"]\n"
	old := map[string]string{"tests/conftest.py": conftest}
	with := func(text string, extra map[string]string) map[string]string {
		out := map[string]string{"tests/conftest.py": text}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	runCases(t, []detectCase{
		{name: "a test file ignored", old: old, new: with("import sys\n\ncollect_ignore = [\"setup.py\", \"test_slow.py\"]\n", nil),
			want: []string{"tests-excluded tests/conftest.py:3"}},
		{name: "a glob of test files ignored", old: old, new: with(conftest+"collect_ignore_glob = [\"*_integration.py\"]\n", nil),
			want: []string{"tests-excluded tests/conftest.py:4"}},
		{name: "appended, over several lines", old: old, new: with(conftest+"collect_ignore.extend([\n    \"unit/test_a.py\",\n])\n", nil),
			want: []string{"tests-excluded tests/conftest.py:5"}},
		{name: "a new conftest ignoring a test directory", old: map[string]string{}, new: with("collect_ignore = [\"integration\"]\n", nil),
			want: []string{"tests-excluded tests/conftest.py:1"}},
		// Twins.
		{name: "files that are no tests", old: old, new: with("import sys\n\ncollect_ignore = [\"setup.py\", \"docs/conf.py\", \"build\"]\n", nil)},
		{name: "a test file the change adds, for another version", old: old,
			new: with(conftest+"if sys.version_info < (3, 10):\n    collect_ignore.append(\"test_match.py\")\n", map[string]string{"tests/test_match.py": "def test_m():\n    assert m()\n"})},
		{name: "reformatted", old: old, new: with("import sys\n\ncollect_ignore = [\n    \"setup.py\",\n]\n", nil)},
	})
}

// jest and vitest configurations narrowed: ignores added, test patterns or roots narrowed.
func TestJSRunnerConfigNarrowed(t *testing.T) {
	jestJS := func(body string) map[string]string {
		return map[string]string{"jest.config.js": "/** @type {import('jest').Config} */\nmodule.exports = {\n  verbose: true,\n" + body + "}\n"}
	}
	vitest := func(test string) map[string]string {
		return map[string]string{"vitest.config.ts": "import { defineConfig, configDefaults } from 'vitest/config'\n\nexport default defineConfig({\n  plugins: [react()],\n  test: {\n" + test + "  },\n})\n"}
	}
	pkg := func(jest string) map[string]string {
		return map[string]string{"package.json": "{\n  \"name\": \"x\",\n  \"jest\": {\n" + jest + "  }\n}\n"}
	}
	runCases(t, []detectCase{
		{name: "package.json jest ignore added", old: pkg("    \"testPathIgnorePatterns\": [\"/node_modules/\"]\n"), new: pkg("    \"testPathIgnorePatterns\": [\"/node_modules/\", \"/e2e/\"]\n"),
			want: []string{"tests-excluded package.json:4"}},
		{name: "jest.config.js ignore added", old: jestJS("  testPathIgnorePatterns: ['/node_modules/'],\n"), new: jestJS("  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/src/slow/'],\n"),
			want: []string{"tests-excluded jest.config.js:4"}},
		{name: "jest testMatch narrowed", old: jestJS("  testMatch: ['**/*.test.js'],\n"), new: jestJS("  testMatch: ['**/a.test.js'],\n"),
			want: []string{"tests-excluded jest.config.js:4"}},
		{name: "jest testMatch set to a file", old: jestJS(""), new: jestJS("  testMatch: [\n    '<rootDir>/test/a.test.js',\n  ],\n"),
			want: []string{"tests-excluded jest.config.js:4"}},
		{name: "jest testMatch moved to a narrower place", old: jestJS("  testMatch: ['<rootDir>/packages/*/__tests__/**/*.spec.ts'],\n"), new: jestJS("  testMatch: ['<rootDir>/packages/pinia/__tests__/**/*.spec.ts'],\n"),
			want: []string{"tests-excluded jest.config.js:4"}},
		{name: "vitest exclude added", old: vitest("    exclude: [...configDefaults.exclude],\n"), new: vitest("    exclude: [...configDefaults.exclude, 'src/slow/**'],\n"),
			want: []string{"tests-excluded vitest.config.ts:6"}},
		{name: "vitest include narrowed", old: vitest("    include: ['src/**/*.test.ts'],\n"), new: vitest("    include: ['src/a/**/*.test.ts'],\n"),
			want: []string{"tests-excluded vitest.config.ts:6"}},
		// Twins.
		{name: "coverage exclude is no test selection", old: vitest("    environment: 'jsdom',\n"), new: vitest("    environment: 'jsdom',\n    coverage: { exclude: ['src/gen/**'] },\n")},
		{name: "jest ignores build output", old: jestJS("  testPathIgnorePatterns: ['/node_modules/'],\n"), new: jestJS("  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/'],\n")},
		{name: "testMatch widened", old: jestJS("  testMatch: ['**/*.test.js'],\n"), new: jestJS("  testMatch: ['**/*.test.js', '**/*.spec.js'],\n")},
		{name: "testMatch following the tests to their new place", old: jestJS("  testMatch: ['<rootDir>/__tests__/**/*.spec.ts'],\n"), new: jestJS("  testMatch: ['<rootDir>/packages/*/__tests__/**/*.spec.ts'],\n")},
		{name: "vitest include set to a pattern", old: vitest("    isolate: false,\n"), new: vitest("    isolate: false,\n    include: ['packages/**/*.spec.ts'],\n")},
		{name: "reformatted", old: vitest("    include: ['src/**/*.test.ts'],\n"), new: vitest("    include: [\n      \"src/**/*.test.ts\", // every test\n    ],\n")},
	})
}

// A pytest test file renamed out of test_*.py / *_test.py is no longer collected.
func TestPythonTestFileRenamedOutOfPattern(t *testing.T) {
	runCases(t, []detectCase{
		{name: "renamed in its directory", old: map[string]string{"tests/test_a.py": pyTests}, new: map[string]string{"tests/a.py": pyTests},
			renames: map[string]string{"tests/test_a.py": "tests/a.py"}, want: []string{"test-file-removed tests/a.py:0"}},
		{name: "moved by hand into a helper module", old: map[string]string{"tests/test_a.py": pyTests}, new: map[string]string{"tests/helpers.py": pyTests + "\n# moved\n"},
			want: []string{"test-file-removed tests/test_a.py:0"}},
		{name: "moved to a subdirectory", old: map[string]string{"tests/test_a.py": pyTests}, new: map[string]string{"tests/unit/test_a.py": pyTests},
			renames: map[string]string{"tests/test_a.py": "tests/unit/test_a.py"}},
		{name: "renamed to the other pattern", old: map[string]string{"test_a.py": pyTests}, new: map[string]string{"a_test.py": pyTests},
			renames: map[string]string{"test_a.py": "a_test.py"}},
		{name: "a helper module beside the tests deleted", old: map[string]string{"tests/helpers.py": "def make():\n    return 1\n", "tests/conftest.py": "import pytest\n"},
			new: map[string]string{}},
		{name: "a module pytest does not collect deleted, helpers named test_ in it", old: map[string]string{"tests/helpers.py": "def test_data():\n    return [1]\n"}, new: map[string]string{}},
		// A module pytest never collected, run by a runner of its own: its tests are judged as before.
		{name: "a test renamed in a module of its own runner", old: map[string]string{"tests/flask_tests.py": pyTests}, new: map[string]string{"tests/flask_tests.py": replace(pyTests, "test_a", "test_a_renamed")}},
	})
}

// Honest changes from real history that look like the shapes above.
func TestShapesOnHonestHistory(t *testing.T) {
	darwinOnly := "//go:build darwin\n\npackage x\n\nimport \"testing\"\n\nfunc TestRace(t *testing.T) {\n\tif race() {\n\t\tt.Fatal(\"race\")\n\t}\n}\n"
	const conftestRoot = "import sys\n\ncollect_ignore = []\nif sys.version_info < (3, 10):\n    collect_ignore.extend([\"tests/test_pattern_matching.py\"])\n"
	const conftestTests = "import sys\n\ncollect_ignore = []\nif sys.version_info < (3, 10):\n    collect_ignore.extend([\"test_pattern_matching.py\"])\n"
	runCases(t, []detectCase{
		// fsnotify: a darwin-only test moved beside the others, guarded to run on darwin alone.
		{name: "a test of another platform's file moved and guarded", old: map[string]string{"x_test.go": goTest, "x_darwin_test.go": darwinOnly},
			new: map[string]string{"x_test.go": goTest + "\nfunc TestRace(t *testing.T) {\n\tif runtime.GOOS != \"darwin\" {\n\t\tt.Skip(\"only on darwin\")\n\t}\n\tif race() {\n\t\tt.Fatal(\"race\")\n\t}\n}\n"}},
		// fsnotify: a new file for another platform, whose test returns at once there.
		{name: "a new file's test that returns first", old: map[string]string{"x_test.go": goTest},
			new: map[string]string{"x_test.go": goTest, "x_windows_test.go": "package x\n\nimport \"testing\"\n\nfunc TestRemoveState(t *testing.T) {\n\treturn\n}\n"}},
		// fsnotify: a CI step that tests each package in a loop.
		{name: "a test command over a shell variable", old: map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - name: test\n        run: go test -c ./...\n"},
			new: map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - name: test\n        run: |\n          for p in $(go list ./...); do\n            go test -c $p\n          done\n"}},
		// attrs: helpers named test_* moved out of tests/__init__.py, which pytest never collected.
		{name: "helpers moved between modules pytest does not collect", old: map[string]string{"tests/__init__.py": "def test_returns_class():\n    return C\n"},
			new: map[string]string{"tests/__init__.py": "", "tests/utils.py": "def test_returns_class():\n    return C\n"}},
		// attrs: conftest.py moved into tests/, its entries now relative to it.
		{name: "conftest moved with its ignores", old: map[string]string{"conftest.py": conftestRoot}, new: map[string]string{"tests/conftest.py": conftestTests},
			renames: map[string]string{"conftest.py": "tests/conftest.py"}},
		{name: "conftest moved by hand with its ignores", old: map[string]string{"conftest.py": conftestRoot}, new: map[string]string{"tests/conftest.py": conftestTests + "\n# moved\n"}},
	})
}

// countingChange counts the reads of the base: each is a git process in a real change.
type countingChange struct {
	*memChange
	oldReads []string
}

func (c *countingChange) Old(p string) ([]byte, bool) {
	c.oldReads = append(c.oldReads, p)
	return c.memChange.Old(p)
}

// Judging Go test files asks nothing of the base: whether a file ran there is read from the diff.
func TestGoTestFilesJudgedWithoutReadingTheBase(t *testing.T) {
	main := "package x\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n"
	for _, tc := range []detectCase{
		{name: "tests edited, removed and skipped", old: map[string]string{"x_test.go": goTest, "main_test.go": main},
			new: map[string]string{"x_test.go": replace(goTestWithoutSub, "func TestAdd(t *testing.T) {\n", "func TestAdd(t *testing.T) {\n\tt.Skip(\"x\")\n"), "main_test.go": main + "\nfunc helper() {}\n"}},
		{name: "a constraint added", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"x_test.go": "//go:build ignore\n\n" + goTest}},
		{name: "a platform file deleted", old: map[string]string{"x_darwin_test.go": "//go:build darwin\n\n" + goTest}, new: map[string]string{}},
		{name: "moved", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"_attic/x_test.go": goTest}, renames: map[string]string{"x_test.go": "_attic/x_test.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := &countingChange{memChange: changeOf(tc.old, tc.new, tc.renames)}
			Detect(ch, Inputs{})
			if len(ch.oldReads) > 0 {
				t.Errorf("read at the base: %v", ch.oldReads)
			}
		})
	}
}

// GOFLAGS in the environment the gates run in passes its tags and -short to every go test.
func TestGOFLAGSCountsAsTheGatesFlags(t *testing.T) {
	t.Setenv("GOFLAGS", "-tags=integration -short")
	runCases(t, []detectCase{
		{name: "a tag GOFLAGS sets", old: map[string]string{"x_test.go": goTest}, new: map[string]string{"x_test.go": "//go:build integration\n\n" + goTest}},
		{name: "short mode GOFLAGS asks for", old: map[string]string{"x_test.go": goTest},
			new:  map[string]string{"x_test.go": replace(goTest, "func TestSub(t *testing.T) {\n", "func TestSub(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"long\")\n\t}\n")},
			want: []string{"test-skipped x_test.go:16"}},
	})
}

// A shell script that a gate reaches through package.json's script or a Makefile recipe is
// judged as one the gate names: `npm test` runs "./test.sh", which an early exit ends. The twin:
// a script no gate reaches, and a line added that checks more.
func TestScriptReachedThroughPackageScript(t *testing.T) {
	sh := "#!/bin/sh\nset -e\nnode --test\n"
	early := "#!/bin/sh\nset -e\nexit 0\nnode --test\n"
	more := "#!/bin/sh\nset -e\nnode --version\nnode --test\n"
	pkg := map[string]string{"package.json": "{\"scripts\": {\"test\": \"./test.sh\", \"bench\": \"sh bench.sh\"}}\n"}
	with := func(files map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range pkg {
			out[k] = v
		}
		for k, v := range files {
			out[k] = v
		}
		return out
	}
	mk := map[string]string{"Makefile": "test:\n\tsh scripts/t.sh\n"}
	runCases(t, []detectCase{
		{name: "npm test runs the script", old: with(map[string]string{"test.sh": sh}), new: with(map[string]string{"test.sh": early}),
			commands: []string{"npm test"}, want: []string{"script-neutered test.sh:3"}},
		{name: "make test runs the script", old: map[string]string{"Makefile": mk["Makefile"], "scripts/t.sh": sh},
			new: map[string]string{"Makefile": mk["Makefile"], "scripts/t.sh": early}, commands: []string{"make test"}, want: []string{"script-neutered scripts/t.sh:3"}},
		{name: "twin: a line that checks more", old: with(map[string]string{"test.sh": sh}), new: with(map[string]string{"test.sh": more}),
			commands: []string{"npm test"}},
		{name: "twin: a script no gate reaches", old: with(map[string]string{"bench.sh": sh}), new: with(map[string]string{"bench.sh": early}),
			commands: []string{"npm test"}},
	})
}
