package scaffold

import (
	"slices"
	"strings"
	"testing"
)

// pomDoc is a pom.xml written from Maven's and the plugins' documentation (maven.apache.org's
// POM reference; the usage pages of spotless-maven-plugin, maven-checkstyle-plugin,
// spotbugs-maven-plugin, maven-pmd-plugin and maven-enforcer-plugin): checkstyle and the
// enforcer bound to the lifecycle by an execution, spotless, spotbugs and pmd declared without
// one, and a plugin only in pluginManagement, which configures and runs nothing.
const pomDoc = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>app</artifactId>
  <version>1.0-SNAPSHOT</version>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-surefire-plugin</artifactId>
          <version>3.2.5</version>
        </plugin>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-pmd-plugin</artifactId>
          <version>3.21.2</version>
        </plugin>
      </plugins>
    </pluginManagement>
    <plugins>
      <plugin>
        <groupId>com.diffplug.spotless</groupId>
        <artifactId>spotless-maven-plugin</artifactId>
        <version>2.43.0</version>
        <configuration>
          <java><googleJavaFormat/></java>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-checkstyle-plugin</artifactId>
        <version>3.3.1</version>
        <executions>
          <execution>
            <id>validate</id>
            <phase>validate</phase>
            <goals>
              <goal>check</goal>
            </goals>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-enforcer-plugin</artifactId>
        <version>3.4.1</version>
        <executions>
          <execution>
            <id>enforce-maven</id>
            <goals><goal>enforce</goal></goals>
            <configuration>
              <rules><requireMavenVersion><version>3.6.3</version></requireMavenVersion></rules>
            </configuration>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>com.github.spotbugs</groupId>
        <artifactId>spotbugs-maven-plugin</artifactId>
        <version>4.8.3.1</version>
      </plugin>
    </plugins>
  </build>
</project>
`

func mavenProject(extra map[string]string) map[string]string {
	files := map[string]string{"pom.xml": pomDoc, "src/main/java/App.java": "class App {}\n", "src/test/java/AppTest.java": "class AppTest {}\n"}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

// pom.xml's declared checks are gates: verify is the test gate (with the checks bound to it),
// spotless and spotbugs, declared without an execution, run by their goals; mvn in batch mode.
func TestMavenDeclaredChecks(t *testing.T) {
	projects := detectTree(t, mavenProject(nil))
	gates := map[string]Gate{}
	for _, g := range Layout(projects) {
		gates[g.Name] = g
	}
	for name, want := range map[string]string{
		"test":     "mvn -B verify",
		"fmt":      "mvn -B spotless:check",
		"spotbugs": "mvn -B compile spotbugs:check",
	} {
		if gates[name].Run != want {
			t.Errorf("gate %s runs %q, want %q (gates: %v)", name, gates[name].Run, want, gateCommands(projects))
		}
	}
	if gates["fmt"].Fix != "mvn -B spotless:apply" {
		t.Errorf("fmt fix = %q, want spotless:apply", gates["fmt"].Fix)
	}
	if !slices.Equal(gates["spotbugs"].Needs, []string{"test"}) {
		t.Errorf("spotbugs needs %q: it compiles into target/ as verify does, so it waits for it", gates["spotbugs"].Needs)
	}
	if c := gates["test"].Comment; !strings.Contains(c, "checkstyle:check") || !strings.Contains(c, "enforcer:enforce") {
		t.Errorf("test comment %q does not name the checks bound to verify", c)
	}
	for name := range gates {
		if strings.Contains(name, "pmd") || strings.Contains(name, "checkstyle") || strings.Contains(name, "enforcer") {
			t.Errorf("gate %s: pmd is only managed, checkstyle and the enforcer run within verify", name)
		}
	}
	if projects[0].Label() != "Java with Maven" {
		t.Errorf("label %q, want Java with Maven", projects[0].Label())
	}
}

// spotless bound to the lifecycle too: verify leaves it to the fmt gate, which reports it once
// and has the fix.
func TestMavenBoundSpotlessIsTheFmtGates(t *testing.T) {
	bound := strings.Replace(pomDoc, "<configuration>\n          <java>",
		"<executions><execution><goals><goal>check</goal></goals></execution></executions>\n        <configuration>\n          <java>", 1)
	got := gateCommands(detectTree(t, mavenProject(map[string]string{"pom.xml": bound})))
	if got["test"] != "mvn -B verify -Dspotless.check.skip=true" || got["fmt"] != "mvn -B spotless:check" {
		t.Errorf("gates %v, want verify without spotless, and the fmt gate", got)
	}
}

// The wrapper the project keeps runs Maven; a CI step that runs mvn is the declared command
// (without the clean that would wipe target/ under the other gates).
func TestMavenWrapperAndCI(t *testing.T) {
	projects := detectTree(t, mavenProject(map[string]string{
		"mvnw": "#!/bin/sh\n", ".mvn/wrapper/maven-wrapper.properties": "distributionUrl=https://repo.maven.apache.org/x.zip\n",
		".github/workflows/ci.yml": "jobs:\n  build:\n    steps:\n      - uses: actions/setup-java@v4\n" +
			"      - run: ./mvnw -B -ntp clean verify -Pci\n      - run: ./mvnw -B spotless:check\n",
	}))
	got := gateCommands(projects)
	if got["test"] != "./mvnw -B -ntp verify -Pci" || got["fmt"] != "./mvnw -B spotless:check" {
		t.Errorf("gates %v, want CI's ./mvnw verify -Pci and spotless:check", got)
	}
	if got["spotbugs"] != "./mvnw -B compile spotbugs:check" {
		t.Errorf("spotbugs = %q, want through the wrapper", got["spotbugs"])
	}
}

// The honest twins: a package build that skips the tests is no test gate, and a module of a
// multi-module build is no project of its own.
func TestMavenNotChecks(t *testing.T) {
	if c, ok := classify(strings.Fields("mvn -B package -DskipTests")); ok {
		t.Errorf("mvn package -DskipTests classified as %+v, want no check", c)
	}
	if c, ok := classify(strings.Fields("mvn spotless:apply")); ok && !c.writes {
		t.Errorf("spotless:apply classified as %+v, want a writer", c)
	}
	files := map[string]string{
		"pom.xml":      "<project><modules><module>core</module></modules></project>",
		"core/pom.xml": "<project><artifactId>core</artifactId></project>",
	}
	projects := detectTree(t, files)
	if len(projects) != 1 {
		t.Errorf("projects %v, want the root only: core is its module", projects)
	}
}

// Gradle: ./gradlew check is the test gate, spotlessCheck the format check (left out of check so
// that it fails once), both through the wrapper when the project keeps one.
func TestGradleDeclaredChecks(t *testing.T) {
	projects := detectTree(t, map[string]string{
		"settings.gradle.kts":  "rootProject.name = \"app\"\ninclude(\"lib\")\n",
		"build.gradle.kts":     "plugins {\n    java\n    id(\"com.diffplug.spotless\") version \"6.25.0\"\n    checkstyle\n}\nspotless {\n    java { googleJavaFormat() }\n}\n",
		"gradlew":              "#!/bin/sh\n",
		"lib/build.gradle.kts": "plugins { `java-library` }\n",
	})
	got := gateCommands(projects)
	if got["check"] != "./gradlew check -x spotlessCheck" || got["fmt"] != "./gradlew spotlessCheck" {
		t.Errorf("gates %v, want ./gradlew check -x spotlessCheck and ./gradlew spotlessCheck", got)
	}
	if len(projects) != 1 || projects[0].Label() != "Java with Gradle" {
		t.Errorf("projects %v, want one Java with Gradle: lib is included", projects)
	}
}

// pom.xml's <defaultGoal> is what a bare `mvn` runs, as CI runs it: the goals it names (and the
// checks they run) are that gate's, no gates beside it.
func TestMavenDefaultGoal(t *testing.T) {
	pom := strings.Replace(pomDoc, "<build>\n", "<build>\n    <defaultGoal>clean verify checkstyle:check spotbugs:check</defaultGoal>\n", 1)
	ci := "jobs:\n  build:\n    steps:\n      - run: mvn --errors --show-version --batch-mode --no-transfer-progress -Ddoclint=all\n"
	for name, files := range map[string]map[string]string{
		"from CI":      {"pom.xml": pom, ".github/workflows/ci.yml": ci},
		"from pom.xml": {"pom.xml": pom},
	} {
		got := gateCommands(detectTree(t, mavenProject(files)))
		want := "mvn -B"
		if name == "from CI" {
			want = "mvn --errors --show-version --batch-mode --no-transfer-progress -Ddoclint=all"
		}
		if got["test"] != want || got["spotbugs"] != "" || got["fmt"] != "mvn -B spotless:check" {
			t.Errorf("%s: gates %v, want test %q running the default goal, spotbugs within it, fmt beside", name, got, want)
		}
	}
}

// Maven's goals among its flags: a flag's value is no goal.
func TestMavenGoals(t *testing.T) {
	for line, want := range map[string][]string{
		"-B -ntp clean verify -Pci":                   {"clean", "verify"},
		"-P ci -pl core -am -T 4 install":             {"install"},
		"--batch-mode -D skipTests=true -f x/pom.xml": nil,
		"spotless:check -s settings.xml":              {"spotless:check"},
	} {
		if got := mavenGoals(strings.Fields(line)); !slices.Equal(got, want) {
			t.Errorf("mavenGoals(%s) = %q, want %q", line, got, want)
		}
	}
}
