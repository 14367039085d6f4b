package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/cache"
	"github.com/gauntlet-dev/gauntlet/internal/engine"
	"github.com/gauntlet-dev/gauntlet/internal/state"
	"github.com/gauntlet-dev/gauntlet/internal/stophook"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
	"github.com/gauntlet-dev/gauntlet/lock"
)

// cleanable is what clean removes from .gauntlet/: every run's logs, the stop hook's ledger and
// caches, the last report, and the per-gate cache. The lock file stays: deleting it would let a waiting run and a new
// one lock two different files.
var cleanable = []string{"logs", "state", engine.LastRunFile, "cache", "tmp"}

type cleanOptions struct {
	IO         *IOStreams
	configFile string
	wait       time.Duration
}

func newCleanCmd(ios *IOStreams, runF func(*cleanOptions) error) *cobra.Command {
	opts := &cleanOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "clean",
		Short: "Remove the logs, the stop hook's state and the last report from .gauntlet/",
		Long: `Remove .gauntlet/logs, .gauntlet/state, .gauntlet/last-run.json, .gauntlet/cache and .gauntlet/tmp, under the lock so that no run
is writing them meanwhile. Another run holding the lock: exit 4, unless --wait.

The stop hook's history goes with .gauntlet/state, and clean records that it removed it, so
that gauntlet status does not report its decisions as missing. The record of agents let go with
gates failing is kept in the user's state directory ($XDG_STATE_HOME/gauntlet, else
~/.local/state/gauntlet) on purpose: cleaning the project must not erase that an agent stopped
with its gates failing. status names them until a pass of the same session resolves them.`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return clean(cmd.Context(), opts)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.configFile, "config", "c", "", "the project of this config file instead of searching for .gauntlet.yml")
	addWaitFlag(f, &opts.wait)
	return cmd
}

func clean(ctx context.Context, opts *cleanOptions) error {
	ios := opts.IO
	root, err := projectRoot(ios, opts.configFile)
	if err != nil {
		return err
	}
	stateDir := filepath.Join(root, state.Name)
	// Without a state dir there is nothing to clean, and no reason to create one to lock it.
	if _, err := os.Lstat(stateDir); errors.Is(err, fs.ErrNotExist) {
		_, err := fmt.Fprintf(ios.Out, "nothing to clean in %s\n", config.DisplayPath(stateDir))
		return err
	}
	sd, err := state.Open(root)
	if err != nil {
		return err
	}
	defer sd.Close()
	held, err := lock.AcquireFor(ctx, sd.Path(), opts.wait, lock.Purpose{Kind: lock.KindClean})
	if err != nil {
		return err
	}
	defer held.Release()

	removed, err := cleanStrays(ios.Out, sd)
	if err != nil {
		return err
	}
	// Before the history goes: the record of its decisions learns that they were removed on
	// purpose, not lost.
	cut, err := stophook.CutHistory(sd)
	if err != nil {
		// The project is cleaned all the same: a record that cannot be read or written must not
		// keep the user from it, only make status count the removed decisions as missing.
		fmt.Fprintf(ios.ErrOut, "gauntlet: warning: %v; status will count the removed decisions as missing\n", err)
	}
	n, err := removeCleanable(ios.Out, sd)
	if err != nil {
		return err
	}
	removed += n
	if cut.Releases > 0 {
		fmt.Fprintf(ios.Out, "kept: the record of %s let go with gates failing, in %s (on purpose: cleaning the project does not erase it; a pass of the same session resolves it)\n",
			termtext.Count(cut.Releases, "agent"), displayHome(ios, cut.Record))
	}
	if n, err = cleanSharedCache(root, ios); err != nil {
		return err
	}
	if removed+n == 0 {
		_, err := fmt.Fprintf(ios.Out, "nothing to clean in %s\n", config.DisplayPath(stateDir))
		return err
	}
	return nil
}

// cleanStrays kills the processes a killed run left running and removes the temp files of
// interrupted writes, and says how many of the two it found.
func cleanStrays(out io.Writer, sd *state.Dir) (int, error) {
	removed := 0
	if deadRun, n, err := engine.KillLeftovers(sd); err != nil {
		return 0, err
	} else if n > 0 {
		fmt.Fprintf(out, "killed %s left running by run %s\n", termtext.Count(n, "process"), deadRun)
		removed++
	}
	// Before the state directories go, so that the count names the strays outside them too.
	if n, err := sd.RemoveTemps(); err != nil {
		return 0, err
	} else if n > 0 {
		fmt.Fprintf(out, "removed %s left by interrupted writes\n", termtext.Count(n, "temp file"))
		removed++
	}
	return removed, nil
}

// removeCleanable removes what clean removes from .gauntlet/, and says how many it found.
func removeCleanable(out io.Writer, sd *state.Dir) (int, error) {
	removed := 0
	for _, name := range cleanable {
		path := filepath.Join(sd.Path(), name)
		what, found := describeCleanable(path, name == "logs")
		if !found {
			continue
		}
		if err := sd.RemoveAll(name); err != nil {
			return 0, err
		}
		fmt.Fprintf(out, "removed %s%s\n", config.DisplayPath(path), what)
		removed++
	}
	return removed, nil
}

// cleanSharedCache removes this project's part of the cache its repository's worktrees share.
func cleanSharedCache(root string, ios *IOStreams) (int, error) {
	dir, name, ok := cache.SharedFile(root)
	if !ok {
		return 0, nil
	}
	defer dir.Close()
	path := filepath.Join(dir.Path(), name)
	if _, err := os.Lstat(path); err != nil {
		return 0, nil
	}
	if err := dir.RemoveAll(name); err != nil {
		return 0, err
	}
	fmt.Fprintf(ios.Out, "removed %s (the cache this repository's worktrees share)\n", path)
	return 1, nil
}

// describeCleanable says whether path exists and, for the logs, how many runs it holds. It only
// looks, without following a symlink; removal goes through the state dir's rooted handle.
func describeCleanable(path string, countRuns bool) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	if !countRuns || !info.IsDir() {
		return "", true
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return "", true
	}
	return fmt.Sprintf(" (%s)", termtext.Count(len(entries), "run")), true
}

// displayHome shortens a path under the home directory to ~/...
func displayHome(ios *IOStreams, path string) string {
	if home := ios.Getenv("HOME"); home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && filepath.IsLocal(rel) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}
