package integrity

import "testing"

// Code of a Go package that steers or imitates its own test binary is test-neutered; a test that
// sets its own flags, runs a helper process with -test.run, or compares go test's output with a
// literal, is not.
func TestSelfSteered(t *testing.T) {
	run, pass, mark := "=== "+"RUN", "--- "+"PASS", `\`+"x16"
	file := func(body string) map[string]string {
		return map[string]string{"x_test.go": "package x\n\n" + body}
	}
	base := map[string]string{"x_test.go": "package x\n"}
	runCases(t, []detectCase{
		{name: "flag.Set of test.skip in init", old: base,
			new:  file("func init() {\n\tflag.Set(\"test.skip\", \"^TestAdd$\")\n}\n"),
			want: []string{"test-neutered x_test.go:4"}},
		{name: "flag.CommandLine.Set of test.run", old: base,
			new:  file("func init() {\n\tflag.CommandLine.Set(\"test.run\", \"^$\")\n}\n"),
			want: []string{"test-neutered x_test.go:4"}},
		{name: "os.Args given -test.short", old: base,
			new:  file("func init() {\n\tos.Args = append(os.Args, \"-test.short\")\n}\n"),
			want: []string{"test-neutered x_test.go:4"}},
		// The lines are built from parts, so that this file's own lines hold no print of framing.
		{name: "framing printed", old: base,
			new:  file("func init() {\n\tfmt.Println(\"" + run + "   TestAdd\")\n\tos.Stdout.WriteString(\"" + mark + pass + ": TestAdd (0.00s)\\n\")\n\tprintln(\"" + pass + "\")\n}\n"),
			want: []string{"test-neutered x_test.go:4", "test-neutered x_test.go:5", "test-neutered x_test.go:6"}},
		{name: "framing in a code file of the package", old: map[string]string{"x.go": "package x\n"},
			new:  map[string]string{"x.go": "package x\n\nfunc init() { fmt.Fprintf(os.Stdout, \"" + pass + ": TestAdd\\n\") }\n"},
			want: []string{"test-neutered x.go:3"}},
		{name: "a method named print", old: base,
			new: file("func (f *filter) show(name string) {\n\tf.print(p, \"" + run + "  \"+name)\n}\n")},
		{name: "a test's own flag and test.v", old: base,
			new: file("var update = flag.Bool(\"update\", false, \"\")\n\nfunc TestMain(m *testing.M) {\n\tflag.Parse()\n\tflag.Set(\"update\", \"true\")\n\tflag.Set(\"test.v\", \"true\")\n\tos.Exit(m.Run())\n}\n")},
		{name: "a CLI test sets os.Args, a helper process runs with -test.run", old: base,
			new: file("func TestCLI(t *testing.T) {\n\tos.Args = []string{\"calc\", \"-x\"}\n\tcmd := exec.Command(os.Args[0], \"-test.run=^TestHelper$\")\n\t_ = cmd\n}\n")},
		{name: "go test's output compared, not printed", old: base,
			new: file("func TestParse(t *testing.T) {\n\twant := \"--- PASS: TestAdd (0.00s)\"\n\tt.Logf(\"=== RUN %s\", want)\n}\n")},
		{name: "in testdata: a fixture", old: map[string]string{"testdata/x_test.go": "package x\n"},
			new: map[string]string{"testdata/x_test.go": "package x\n\nfunc init() { flag.Set(\"test.run\", \"^$\") }\n"}},
	})
}
