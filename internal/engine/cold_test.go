package engine

import "testing"

// A cold build is named only when the gate's own output shows one: the lines of go, cargo, Maven
// and Gradle fetching or compiling dependencies. The honest twins, a test run or a linter's
// progress, name none.
func TestBuildingLine(t *testing.T) {
	for _, tt := range []struct{ tail, want string }{
		{"go: downloading golang.org/x/tools v0.30.0\ngo: downloading golang.org/x/mod v0.23.0", "go: downloading golang.org/x/mod v0.23.0"},
		{"    Updating crates.io index\n  Downloaded serde v1.0.200\n   Compiling serde v1.0.200\n   Compiling proc-macro2 v1.0.86", "Compiling proc-macro2 v1.0.86"},
		{"  Downloading crates ...", "Downloading crates ..."},
		{"Downloading from central: https://repo.maven.apache.org/maven2/org/x.pom", "Downloading from central: https://repo.maven.apache.org/maven2/org/x.pom"},
		{"Downloading https://services.gradle.org/distributions/gradle-8.10-bin.zip", "Downloading https://services.gradle.org/distributions/gradle-8.10-bin.zip"},
		// Not a build: what a hanging test or a slow linter prints.
		{"=== RUN   TestSlow", ""},
		{"✓ src/a.test.ts (154 tests) 2.1s", ""},
		{"./pkg/a.py:1:1: E302 expected 2 blank lines", ""},
		{"Compiling the report...", ""},
		{"", ""},
	} {
		if got := buildingLine(tt.tail); got != tt.want {
			t.Errorf("buildingLine(%q) = %q, want %q", tt.tail, got, tt.want)
		}
	}
}
