package main

import (
	"fmt"
	"runtime/debug"

	"github.com/gauntlet-dev/gauntlet/internal/causes"
	"github.com/spf13/cobra"
)

// Set by the Makefile through -ldflags; a plain `go build` falls back to the module build info.
var (
	version = ""
	commit  = ""
)

func versionInfo() (v, c string) {
	v, c = version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	if c == "" {
		c = "unknown"
	}
	return canonicalVersion(v), c
}

// canonicalVersion is the one spelling gauntlet prints a version in: without the tag's "v"
// (0.4.1, 0.4.2-0.20260101120000-abcdef123456), as release archives and package managers spell
// it, whether the number came from goreleaser, `git describe` in the Makefile or the module
// version of a `go install` build (v0.4.1).
func canonicalVersion(v string) string {
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		return v[1:]
	}
	return v
}

// versionOptions are version's surroundings; it has no flags.
type versionOptions struct {
	IO *IOStreams
}

func newVersionCmd(ios *IOStreams, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{IO: ios}
	return &cobra.Command{
		Use:   "version",
		Short: "Print gauntlet's version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			_, err := fmt.Fprintln(opts.IO.Out, versionText())
			return err
		}),
	}
}

// versionText is what `gauntlet version` and `gauntlet --version` print: the build, then the
// causes catalogue, which decides which failures are excused as environmental, so that a report
// can be traced to the signatures that judged it.
func versionText() string {
	return fmt.Sprintf("%s\ncauses catalogue v%d (%d signatures)", versionLine(), causes.Version, len(causes.Catalogue()))
}
