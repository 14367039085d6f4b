package scaffold

import (
	"strings"
	"testing"
)

// noxfileDoc is a noxfile written from nox's documentation (nox.thea.codes, "Configuring and
// running sessions"): sessions with and without name=, parametrized over Pythons, the session
// decorator imported from nox, annotated parameters, posargs, keyword arguments to session.run,
// and the plumbing a noxfile holds beside its checks (docs, release, an install-only session).
const noxfileDoc = `import nox
from nox import session

nox.options.sessions = ["lint", "tests", "type-check"]


@nox.session
def lint(session):
    session.install("flake8")
    session.run("flake8", "src")


@nox.session(python=["3.9", "3.10", "3.11"])
def tests(session):
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session(name="type-check", python="3.11")
def typecheck(session: nox.Session) -> None:
    session.install("mypy")
    session.run("mypy", "src", external=True)


@session(reuse_venv=True)
def docs(session):
    session.install("sphinx")
    session.run("sphinx-build", "-b", "html", "docs", "docs/_build")


@nox.session
def release(session):
    session.install("twine")
    session.run("twine", "upload", "dist/*")


@nox.session
def deps(session):
    session.install("-r", "requirements.txt")


@nox.session
def integration(session):
    args = session.posargs or ["tests/integration"]
    session.run("pytest", *args)


@session(tags=["style"])
def spelling(session):
    session.run("codespell", "--check-filenames")


@nox.session
def cover(session):
    session.run("coverage", "report", *session.posargs[1:])


@nox.session
@nox.parametrize("django", ["4.2", "5.0"])
def compat(session, django):
    session.install(f"django=={django}")
    session.run("python", "-m", "pytest", "tests/compat")


@nox.session
def cov_tests(session):
    coverage = ["python", "-m", "coverage"]
    if session.posargs:
        session.run(*coverage, "run", "-m", "pytest", env=env)
    else:
        session.run("python", "-m", "pytest", "--capture=no", *posargs)


def _build_wheel(session):
    session.run("mypy", "--strict", "helpers")


@nox.session
def downstream(
    session: nox.Session, project: str
) -> None:
    session.run("pip", "wheel", "-w", "wheels")
    session.run(*pip_cmd, "install", project)
`

func noxProject(t *testing.T) []Project {
	t.Helper()
	return detectTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"noxfile.py":     noxfileDoc,
	})
}

// Every session whose commands init reads becomes a gate, its source the session's own name:
// name= wins over the function's; keyword arguments to session.run are no words of the command;
// a parametrized session is one session.
func TestNoxSessionsBecomeGates(t *testing.T) {
	projects := noxProject(t)
	got := map[string]string{}
	for _, g := range Layout(projects) {
		got[g.Name] = g.Run + " <- " + g.Source
	}
	wantGates(t, got, map[string]string{
		"flake8":    "flake8 src <- from noxfile.py, session lint",
		"typecheck": "mypy src <- from noxfile.py, session type-check",
		"spelling":  "codespell --check-filenames <- from noxfile.py, session spelling",
	})
	if want := "pytest <- from noxfile.py, session tests; also in noxfile.py, session compat, noxfile.py, session cov_tests"; got["test"] != want {
		t.Errorf("gate test = %q, want %q (gates: %v)", got["test"], want, got)
	}
}

// A session that checks but that init makes no gate of is named with why (its command computed);
// a plumbing session (docs, release, install only) is not named.
func TestNoxSessionsNotGatedAreNamed(t *testing.T) {
	notes := allNotes(noxProject(t))
	for _, want := range []string{
		"nox session integration (`nox -s integration`): its command is computed in Python (`pytest ...`)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not name %q:\n%s", want, notes)
		}
	}
	// A session read in part is gated by what was read, and is not named besides; a program that
	// is computed itself is said so, not shown as "?".
	for _, not := range []string{"session cov_tests", "`? ...`", "(`? "} {
		if strings.Contains(notes, not) {
			t.Errorf("notes hold %q:\n%s", not, notes)
		}
	}
	// Only plumbing read (pip wheel) does not gate a session: its computed run is still named.
	if want := "nox session downstream (`nox -s downstream`): its command is computed in Python, init cannot tell what it runs"; !strings.Contains(notes, want) {
		t.Errorf("notes do not name %q:\n%s", want, notes)
	}
	// A helper function between two sessions is no part of the session before it.
	for name, run := range gateCommands(noxProject(t)) {
		if strings.Contains(run, "helpers") {
			t.Errorf("a helper function's run became part of gate %s: %q", name, run)
		}
	}
	for _, plumbing := range []string{"session docs", "session release", "session deps", "session cover", "sphinx-build", "twine"} {
		if strings.Contains(notes, plumbing) {
			t.Errorf("notes name the plumbing %q:\n%s", plumbing, notes)
		}
	}
	gates := gateCommands(noxProject(t))
	for name, run := range gates {
		if strings.Contains(run, "sphinx") || strings.Contains(run, "twine") {
			t.Errorf("plumbing became gate %s: %q", name, run)
		}
	}
}

// The honest twin: a @session decorator that is not nox's (not imported from nox) makes no
// session, and neither does a function of the noxfile that no decorator makes one.
func TestNoxSessionNeedsNoxsDecorator(t *testing.T) {
	gates := gateCommands(detectTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"noxfile.py": "import nox\nfrom mylib import session\n\n@session\ndef lint(session):\n    session.run(\"flake8\")\n\n" +
			"def helper(session):\n    session.run(\"mypy\", \"src\")\n\n@nox.session\ndef tests(session):\n    session.run(\"pytest\")\n",
	}))
	if _, ok := gates["flake8"]; ok {
		t.Errorf("a @session not imported from nox became a gate: %v", gates)
	}
	if _, ok := gates["typecheck"]; ok {
		t.Errorf("an undecorated helper became a gate: %v", gates)
	}
	if _, ok := gates["test"]; !ok {
		t.Errorf("the nox session tests is no gate: %v", gates)
	}
}

// The honest twin of a docs build as plumbing: one that fails on a warning checks the docs, and
// is named like any check init does not know.
func TestStrictDocsBuildIsNamed(t *testing.T) {
	notes := allNotes(detectTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"noxfile.py": "import nox\n\n@nox.session\ndef docs(session):\n    session.install('sphinx')\n" +
			"    session.run('sphinx-build', '-W', '-b', 'html', 'docs', 'build')\n",
	}))
	if !strings.Contains(notes, "sphinx-build -W -b html docs build") {
		t.Errorf("a docs build that fails on warnings is not named:\n%s", notes)
	}
}

// CI that runs a parametrized session by its id (`nox -s tests-3.12`, `nox -s "tests(django='5.0')"`)
// runs that session: it is gated, not offered as one nothing runs.
func TestNoxParametrizedSessionRunByCI(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"noxfile.py": "import nox\n\n@nox.session(python=['3.11', '3.12'])\ndef tests(session):\n    session.run('pytest')\n\n" +
			"@nox.session\n@nox.parametrize('django', ['4.2', '5.0'])\ndef compat(session, django):\n    session.run('mypy', 'src')\n",
		".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: nox -s tests-3.12\n      - run: nox -s \"compat(django='5.0')\"\n      - run: ruff check\n",
	})
	gates := gateCommands(projects)
	if gates["test"] != "pytest" || gates["typecheck"] != "mypy src" || len(offerNames(projects)) > 0 {
		t.Errorf("gates %v (offers %v), want the sessions CI runs by their ids gated: pytest and mypy src", gates, offerNames(projects))
	}
}

// A noxfile saved with Windows line endings has the same sessions.
func TestNoxSessionsWithCRLF(t *testing.T) {
	lf := gateCommands(detectTree(t, map[string]string{"pyproject.toml": "[project]\nname = 'x'\n", "noxfile.py": noxfileDoc}))
	crlf := gateCommands(detectTree(t, map[string]string{"pyproject.toml": "[project]\nname = 'x'\n",
		"noxfile.py": strings.ReplaceAll(noxfileDoc, "\n", "\r\n")}))
	if len(lf) == 0 || len(crlf) != len(lf) {
		t.Errorf("gates with CRLF %v, with LF %v", crlf, lf)
	}
}
