package census

import (
	"strconv"
	"strings"
	"sync"
)

// GoShow says what a go test command prints without the -json a census adds, so that a caller
// showing the events as text shows what the command prints as declared. go test prints a
// failing test's report and log, and never a passing test's (nor the === RUN and --- PASS
// lines), unless -v or -list is given.
type GoShow struct {
	// Verbose: -v or -list: every event's Output, which is what go test -v prints.
	Verbose bool
	// Streams: no package named (the current directory), or -bench or -fuzz: go test prints
	// each package's output as it comes, whether the package passes or fails. With packages
	// named, a package that passes shows only its "ok" line.
	Streams bool
	// FinalFail: packages named and no -fuzz: go test ends with a FAIL line when a package
	// failed, which it leaves out of -json.
	FinalFail bool
	// JSON: GOFLAGS already asks for -json, so the events are what the user sees.
	JSON bool
	// Cover: the command (or GOFLAGS) asks for coverage itself (-cover, -coverprofile,
	// -covermode, -coverpkg): the coverage lines go test prints are the user's.
	Cover bool
	// Toolexec: the command (or GOFLAGS) names its own -toolexec.
	Toolexec bool
	// NoCover says why go test, run as the command (or GOFLAGS) asks, cannot write a cover
	// profile: it fails if asked (-fuzz, -cover=false). "" when it can.
	NoCover string
	// HideCoverage: the caller added -coverprofile and the user did not ask for coverage, so the
	// coverage lines go test prints because of it are not shown (set by the caller).
	HideCoverage bool
}

// goValueFlags are go test's flags (build and test flags, without the test. prefix) that take
// their value as the next word when it is not given with '='. Any other flag is a boolean.
var goValueFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"C": true, "p": true, "o": true, "exec": true, "tags": true, "ldflags": true, "gcflags": true,
		"asmflags": true, "gccgoflags": true, "mod": true, "modfile": true, "overlay": true, "pkgdir": true,
		"toolexec": true, "buildmode": true, "compiler": true, "installsuffix": true, "pgo": true,
		"covermode": true, "coverpkg": true, "coverprofile": true, "vet": true, "run": true, "skip": true,
		"bench": true, "benchtime": true, "count": true, "cpu": true, "parallel": true, "timeout": true,
		"list": true, "fuzz": true, "fuzztime": true, "fuzzminimizetime": true, "shuffle": true,
		"blockprofile": true, "blockprofilerate": true, "cpuprofile": true, "memprofile": true,
		"memprofilerate": true, "mutexprofile": true, "mutexprofilefraction": true, "outputdir": true,
		"trace": true, "debug-actiongraph": true, "debug-trace": true, "debug-runtime-trace": true,
	}
})

// goTestFlags reads go test's words after "test" (or GOFLAGS' words) into the flags they set,
// the last of a name winning, and says whether a package is named. Words after -args are the
// test binary's.
func goTestFlags(words []string, flags map[string]string) (packages bool) {
	for k := 0; k < len(words); k++ {
		w := words[k]
		if w == "-args" || w == "--args" {
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			packages = true
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		switch {
		case hasValue:
		case goValueFlags()[name] && k+1 < len(words):
			k++
			value = words[k]
		default:
			value = "true"
		}
		flags[name] = value
	}
	return packages
}

// goShow is what the go test command of words (the runner at i) prints, and whether it already
// asks for -json through a GOFLAGS assignment before it.
func goShow(words []string, i int) (show GoShow, asksJSON bool) {
	flags := map[string]string{}
	for _, w := range words[:i] {
		if v, ok := strings.CutPrefix(w, "GOFLAGS="); ok {
			clear(flags)
			goTestFlags(strings.Fields(v), flags)
		}
	}
	asksJSON = flagOn(flags["json"])
	packages := goTestFlags(words[i+2:], flags)
	return showOf(flags, packages), asksJSON
}

func showOf(flags map[string]string, packages bool) GoShow {
	return GoShow{
		Verbose:   flagOn(flags["v"]) || flags["list"] != "",
		Streams:   !packages || flags["bench"] != "" || flags["fuzz"] != "",
		FinalFail: packages && flags["fuzz"] == "",
		Cover:     coverAsked(flags),
		Toolexec:  flags["toolexec"] != "",
		NoCover:   noCover(flags),
	}
}

// noCover says why go test run with flags cannot write a cover profile, "" when it can: asked
// all the same, it fails ("cannot use -coverprofile flag with -fuzz flag"; with -cover=false the
// test binary is built without coverage and refuses the profile).
func noCover(flags map[string]string) string {
	switch {
	case flags["fuzz"] != "":
		return "go test writes no cover profile while it fuzzes (-fuzz)"
	case flags["cover"] != "" && !flagOn(flags["cover"]):
		return "the command turns go test's coverage off (-cover=false)"
	}
	return ""
}

// coverAsked says whether go test's flags ask for coverage.
func coverAsked(flags map[string]string) bool {
	return flagOn(flags["cover"]) || flags["coverprofile"] != "" || flags["covermode"] != "" || flags["coverpkg"] != ""
}

// WithGOFLAGS adds what GOFLAGS, from the command's environment, asks of go test: its -v,
// -list, -bench, -fuzz and -json.
func (s GoShow) WithGOFLAGS(goflags string) GoShow {
	flags := map[string]string{}
	goTestFlags(strings.Fields(goflags), flags)
	if flagOn(flags["v"]) || flags["list"] != "" {
		s.Verbose = true
	}
	if flags["bench"] != "" || flags["fuzz"] != "" {
		s.Streams = true
	}
	if flags["fuzz"] != "" {
		s.FinalFail = false
	}
	if flagOn(flags["json"]) {
		s.JSON = true
	}
	if coverAsked(flags) {
		s.Cover = true
	}
	if flags["toolexec"] != "" {
		s.Toolexec = true
	}
	if why := noCover(flags); why != "" {
		s.NoCover = why
	}
	return s
}

// flagOn reads a boolean flag's value as the flag package does; "" is unset.
func flagOn(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b || v == "test2json"
}
