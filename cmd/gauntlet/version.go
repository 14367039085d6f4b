package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/gauntlet-dev/gauntlet/causes"
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
	return v, c
}

func newVersionCmd(io streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gauntlet's version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: runE(func(*cobra.Command, []string) error {
			v, c := versionInfo()
			_, err := fmt.Fprintf(io.Out, "gauntlet %s (commit %s, %s %s/%s)\n", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			if err != nil {
				return err
			}
			// The catalogue decides which failures are excused as environmental: a report is
			// traced to the signatures that judged it by this version.
			_, err = fmt.Fprintf(io.Out, "causes catalogue v%d (%d signatures)\n", causes.Version, len(causes.Catalogue()))
			return err
		}),
	}
}
