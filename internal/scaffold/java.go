package scaffold

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// A Maven or Gradle build declares its checks in its build file: Maven's lifecycle (`verify`
// compiles, tests and runs every goal pom.xml binds to it) and the check plugins it declares;
// Gradle's `check` task (the tests and every verification task the applied plugins add). init
// runs them through the wrapper the project keeps (./mvnw, ./gradlew), else the tool on PATH,
// and prefers the command CI runs.

// javaTime bounds a cold first build: the dependencies download, then everything compiles.
const javaTime = 30 * time.Minute

// mavenPOM is what init reads of pom.xml: its modules and the plugins its build runs (not
// pluginManagement's, which only configure).
type mavenPOM struct {
	Modules []string `xml:"modules>module"`
	// DefaultGoal is what a bare `mvn` runs: the project's own "check everything".
	DefaultGoal string        `xml:"build>defaultGoal"`
	Plugins     []mavenPlugin `xml:"build>plugins>plugin"`
}

// mavenPlugin is a plugin of pom.xml's build and the goals its executions bind to the lifecycle.
type mavenPlugin struct {
	ArtifactID string `xml:"artifactId"`
	Executions []struct {
		Goals []string `xml:"goals>goal"`
	} `xml:"executions>execution"`
}

// plugin is the build's plugin of that artifactId; false when the build runs none.
func (pom mavenPOM) plugin(artifact string) (mavenPlugin, bool) {
	i := slices.IndexFunc(pom.Plugins, func(pl mavenPlugin) bool { return pl.ArtifactID == artifact })
	if i < 0 {
		return mavenPlugin{}, false
	}
	return pom.Plugins[i], true
}

func readPOM(dir string) (mavenPOM, bool) {
	var pom mavenPOM
	data := readCapped(filepath.Join(dir, "pom.xml"))
	return pom, data != nil && xml.Unmarshal(data, &pom) == nil
}

// mavenCheck is a plugin that checks: its gate, the goal that runs it alone, and what else that
// goal needs.
type mavenCheck struct {
	artifact, key, name, goal, fix, comment string
	compiles                                bool // it reads compiled classes: compile first, after the test gate
}

// mavenChecks are the check plugins init knows, in the order their gates are written.
var mavenChecks = []mavenCheck{
	{artifact: "spotless-maven-plugin", key: "maven-spotless", name: "fmt", goal: "spotless:check", fix: "spotless:apply",
		comment: "files spotless would reformat"},
	{artifact: "maven-checkstyle-plugin", key: "maven-checkstyle", name: "checkstyle", goal: "checkstyle:check",
		comment: "checkstyle's rules"},
	{artifact: "maven-pmd-plugin", key: "maven-pmd", name: "pmd", goal: "pmd:check", comment: "PMD's rules"},
	{artifact: "spotbugs-maven-plugin", key: "maven-spotbugs", name: "spotbugs", goal: "spotbugs:check",
		comment: "SpotBugs' bug patterns", compiles: true},
	{artifact: "maven-enforcer-plugin", key: "maven-enforcer", name: "enforcer", goal: "enforcer:enforce",
		comment: "the enforcer's rules"},
}

// detectJava reads a Maven (pom.xml) or Gradle (build.gradle, settings.gradle, .kts) build.
func detectJava(c *dirContext) *Project {
	switch {
	case exists(c.abs, "pom.xml"):
		return detectMaven(c)
	case anyExists(c.abs, "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"):
		return detectGradle(c)
	}
	return nil
}

func anyExists(dir string, names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return exists(dir, n) })
}

// detectMaven makes the gates of pom.xml: the test gate (CI's mvn command, else the default goal
// pom.xml declares, else verify), then each check plugin the test gate does not run already: one
// declared without an execution runs by its goal; one bound to the lifecycle runs within verify.
func detectMaven(c *dirContext) *Project {
	p := &Project{Kind: "Java", Tool: "Maven"}
	pom, ok := readPOM(c.abs)
	if !ok {
		p.Notes = append(p.Notes, "pom.xml could not be read: add its checks by hand.")
		return p
	}
	mvn := "mvn"
	if exists(c.abs, "mvnw") {
		mvn = "./mvnw"
	}
	test, declared := c.pick("maven-test")
	if !declared {
		test = mavenTest(mvn, pom)
		test.Inferred = !dirExists(c.abs, "src/test") && len(pom.Modules) == 0
	}
	m := mavenScan{c: c, mvn: mvn, runs: testGoals(test.Run, pom)}
	for _, mc := range mavenChecks {
		m.plugin(pom, mc)
	}
	if len(m.within) > 0 {
		test.Comment += ", with the checks it runs: " + strings.Join(m.within, ", ")
	}
	if !declared && len(m.skips) > 0 {
		test.Run += " " + strings.Join(m.skips, " ")
	}
	if test.Inferred {
		for i := range m.checks {
			m.checks[i].Needs = nil // the test gate is only offered
		}
	}
	p.Gates = append(append(p.Gates, test), m.checks...)
	return p
}

// testGoals are the goals the test gate's mvn command runs: those it names, else pom.xml's
// default goal.
func testGoals(run string, pom mavenPOM) []string {
	var goals []string
	for _, cmd := range splitCommands(run) {
		goals = append(goals, mavenGoals(cmd.words[1:])...)
	}
	if len(goals) == 0 {
		goals = strings.Fields(pom.DefaultGoal)
	}
	return goals
}

// mavenScan is a pom.xml being read: the goals the test gate runs, the check gates so far, the
// checks the test gate runs (its goals, or bound to its phases), and the properties that keep it
// from running a check a gate of its own runs.
type mavenScan struct {
	c             *dirContext
	mvn           string
	runs          []string
	checks        []Gate
	within, skips []string
}

// plugin adds the gate of one check plugin: CI's command for it, else its goal when pom.xml
// declares it and the test gate does not run it already.
func (m *mavenScan) plugin(pom mavenPOM, mc mavenCheck) {
	pl, inPOM := pom.plugin(mc.artifact)
	g, declared := m.c.pick(mc.key)
	switch {
	case declared:
	case slices.Contains(m.runs, mc.goal):
		m.within = append(m.within, mc.goal) // the test gate's command names it
		return
	case !inPOM:
		return
	case len(pl.Executions) > 0 && mc.fix == "":
		m.within = append(m.within, mc.goal) // runs within verify, where pom.xml binds it
		return
	default:
		g = mc.gate(m.mvn)
	}
	if mc.key == "maven-spotless" && len(pl.Executions) > 0 {
		// Bound to verify too: the fmt gate is its one report, with the fix.
		m.skips = append(m.skips, "-Dspotless.check.skip=true")
	}
	m.checks = append(m.checks, g)
}

// dirExists reports whether dir/name is a directory.
func dirExists(dir, name string) bool {
	info, err := os.Stat(filepath.Join(dir, name))
	return err == nil && info.IsDir()
}

// gate is a check plugin's gate run by its goal alone.
func (mc mavenCheck) gate(mvn string) Gate {
	g := Gate{Name: mc.name, Comment: mc.comment, Run: mvn + " -B " + mc.goal, Timeout: lintTime,
		Source: "from pom.xml, " + mc.artifact}
	if mc.fix != "" {
		g.Fix = mvn + " -B " + mc.fix
	}
	if mc.compiles {
		// It reads target/classes: it compiles there after the tests' build, never beside it.
		g.Run = mvn + " -B compile " + mc.goal
		g.Needs = []string{"test"}
		g.Timeout = javaTime
	}
	return g
}

// mavenTest is the test gate pom.xml declares: its default goal when that runs the tests (what
// the project runs with a bare mvn), else verify: the build, its tests and the checks bound to it.
func mavenTest(mvn string, pom mavenPOM) Gate {
	g := Gate{Name: "test", Comment: "the build and its tests (mvn verify)", Run: mvn + " -B verify", Timeout: javaTime,
		Source: "from pom.xml"}
	if goals := strings.Fields(pom.DefaultGoal); slices.ContainsFunc(goals, func(w string) bool { return contains(mavenPhases, w) }) {
		g.Run = mvn + " -B"
		g.Comment = "the build and its tests, as pom.xml's default goal runs them (" + pom.DefaultGoal + ")"
		g.Source = "from pom.xml, defaultGoal"
	}
	return g
}

// gradleSpotless finds the spotless plugin in a Gradle build file.
var gradleSpotless = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`com\.diffplug\.spotless|\bspotless\s*\{`) })

// detectGradle makes the gates of a Gradle build: `check` (the tests and every verification
// task), and spotless's check with its fix when the build applies it.
func detectGradle(c *dirContext) *Project {
	p := &Project{Kind: "Java", Tool: "Gradle"}
	gradle := "gradle"
	if exists(c.abs, "gradlew") {
		gradle = "./gradlew"
	}
	// The build file is read once: its name is each gate's source, its text says whether spotless is applied.
	buildFile, build := firstFile(c.abs, "build.gradle.kts", "build.gradle")
	spotless := gradleSpotless().Match(build)
	check, declared := c.pick("gradle-check")
	if !declared {
		check = Gate{Name: "check", Comment: "the tests and every verification task the build applies (gradle check)",
			Run: gradle + " check", Timeout: javaTime, Source: "from " + firstNonEmpty(buildFile, "the Gradle build")}
		if spotless {
			check.Run += " -x spotlessCheck" // the fmt gate's: one report, with its fix
		}
	}
	p.Gates = append(p.Gates, check)
	if g, ok := c.pick("gradle-spotless"); ok {
		p.Gates = append(p.Gates, g)
	} else if spotless {
		p.Gates = append(p.Gates, Gate{Name: "fmt", Comment: "files spotless would reformat", Run: gradle + " spotlessCheck",
			Fix: gradle + " spotlessApply", Timeout: lintTime, Source: "from " + buildFile + ", spotless"})
	}
	return p
}

// mavenPhases are the lifecycle phases that run the tests (and the checks bound before them).
var mavenPhases = []string{"test", "verify", "install", "integration-test", "package"}

// classifyMaven recognises mvn (and ./mvnw) running the tests or a check plugin's goal; a build
// that skips the tests is no check. clean is taken off: it would wipe target/ under the other
// gates. Batch mode (-B) is added where it is missing.
func classifyMaven(_ string, words []string) (check, bool) {
	args := slices.DeleteFunc(slices.Clone(words[1:]), func(w string) bool { return w == "clean" })
	if !slices.Contains(args, "-B") && !slices.Contains(args, "--batch-mode") {
		args = append([]string{"-B"}, args...)
	}
	cmd := append([]string{words[0]}, args...)
	for _, mc := range mavenChecks {
		if slices.Contains(args, mc.goal) {
			c := check{key: mc.key, kind: "Java", name: mc.name, comment: mc.comment, words: cmd, timeout: lintTime}
			if mc.fix != "" {
				c.fix = replaced(cmd, mc.goal, mc.fix)
			}
			return c, true
		}
		if mc.fix != "" && slices.Contains(args, mc.fix) {
			return check{key: mc.key, kind: "Java", name: mc.name, words: cmd, writes: true}, true
		}
	}
	skips := slices.ContainsFunc(args, func(w string) bool {
		return w == "-DskipTests" || strings.HasPrefix(w, "-DskipTests=true") || strings.HasPrefix(w, "-Dmaven.test.skip")
	})
	goals := mavenGoals(args)
	// No goal at all runs pom.xml's default goal: the project's own choice, read by detectMaven.
	if skips || len(goals) > 0 && !slices.ContainsFunc(goals, func(w string) bool { return contains(mavenPhases, w) }) {
		return check{}, false
	}
	return check{key: "maven-test", kind: "Java", name: "test", comment: "the build and its tests", words: cmd, timeout: javaTime}, true
}

// mavenValueFlags are mvn's flags that take the next word as their value.
var mavenValueFlags = []string{"-P", "--activate-profiles", "-pl", "--projects", "-T", "--threads", "-f", "--file", "-s",
	"--settings", "-gs", "--global-settings", "-t", "--toolchains", "-rf", "--resume-from", "-l", "--log-file", "-D", "--define",
	"-b", "--builder", "-gt", "--global-toolchains"}

// mavenGoals are the goals and phases among mvn's arguments.
func mavenGoals(args []string) []string {
	var goals []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case contains(mavenValueFlags, a):
			i++
		case !strings.HasPrefix(a, "-"):
			goals = append(goals, a)
		}
	}
	return goals
}

// classifyGradle recognises gradle (and ./gradlew) running check, test or build (the tests and
// the verification tasks), or spotless's check.
func classifyGradle(_ string, words []string) (check, bool) {
	args := slices.DeleteFunc(slices.Clone(words[1:]), func(w string) bool { return w == "clean" })
	cmd := append([]string{words[0]}, args...)
	switch {
	case slices.Contains(args, "spotlessCheck"):
		return check{key: "gradle-spotless", kind: "Java", name: "fmt", comment: "files spotless would reformat", words: cmd,
			fix: replaced(cmd, "spotlessCheck", "spotlessApply"), timeout: lintTime}, true
	case slices.Contains(args, "spotlessApply"):
		return check{key: "gradle-spotless", kind: "Java", name: "fmt", words: cmd, writes: true}, true
	case slices.ContainsFunc(args, func(w string) bool { return w == "check" || w == "test" || w == "build" }):
		return check{key: "gradle-check", kind: "Java", name: "check", comment: "the tests and the verification tasks",
			words: cmd, timeout: javaTime}, true
	}
	return check{}, false
}

// replaced is words with every from replaced by to.
func replaced(words []string, from, to string) []string {
	out := slices.Clone(words)
	for i, w := range out {
		if w == from {
			out[i] = to
		}
	}
	return out
}

// javaModules are the folders a root Maven or Gradle build covers (pom.xml's modules,
// settings.gradle's include): its own build checks them, so they are no projects of their own.
func javaModules(root string) []string {
	if pom, ok := readPOM(root); ok {
		return pom.Modules
	}
	_, settings := firstFile(root, "settings.gradle.kts", "settings.gradle")
	var out []string
	for _, m := range gradleInclude().FindAllStringSubmatch(string(settings), -1) {
		for _, q := range gradleQuoted().FindAllStringSubmatch(m[1], -1) {
			out = append(out, strings.ReplaceAll(strings.TrimPrefix(q[1], ":"), ":", "/"))
		}
	}
	return out
}

var (
	gradleInclude = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*include\b\s*\(?([^\n)]*)`) })
	gradleQuoted  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']([^"']+)["']`) })
)
