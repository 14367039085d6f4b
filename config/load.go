package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// Load finds the config (or takes opts.File), decodes it strictly, merges .gauntlet.local.yml
// from the same directory when present, and validates the result. Problems in the files come
// back as *Errors, listing all of them; a missing config wraps ErrNotFound.
func Load(opts Options) (*Config, error) {
	path := opts.File
	// An explicit -c FILE is the user's own choice and is trusted as such; only the files the
	// search turns up are checked for who owns them.
	t := trust{euid: -1}
	if path == "" {
		dir := opts.Dir
		if dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, fmt.Errorf("find config: %w", err)
			}
			dir = wd
		}
		found, trusted, err := find(dir)
		if err != nil {
			return nil, err
		}
		if err := trusted.checkGit(found); err != nil {
			return nil, err
		}
		path, t = found, trusted
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("config path %s: %w", path, err)
	}
	deadline := time.Now().Add(readDeadline)
	data, err := readConfig(abs, t, deadline)
	if err != nil {
		return nil, err
	}
	main := source{path: abs, data: data}

	root := filepath.Dir(abs)
	localPath := filepath.Join(root, LocalFileName)
	if _, err := os.Lstat(localPath); opts.NoLocal || errors.Is(err, fs.ErrNotExist) {
		return assemble(root, main, nil)
	}
	localData, err := readConfig(localPath, t, deadline)
	if err != nil {
		return nil, err
	}
	return assemble(root, main, &source{path: localPath, data: localData})
}

// readDeadline bounds reading both config files: a file whose read blocks must not hang a stop
// hook, whose own deadline is not known before the config is read.
const readDeadline = 10 * time.Second

// Parse decodes and validates one config file's contents without looking for a local override.
// root is the project root; "" means the directory of path.
func Parse(path string, data []byte, root string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("config path %s: %w", path, err)
	}
	if root == "" {
		root = filepath.Dir(abs)
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	return assemble(root, source{path: abs, data: data}, nil)
}

// ParsedFrom says whether c is what Parse(path, data, c.Root) gives: the config of that one file,
// with those bytes and no local override. A caller holding a file's bytes (the stop hook, the
// config at a session's base) need not parse it again when it is the one loaded.
func (c *Config) ParsedFrom(path string, data []byte) bool {
	if c.LocalPath != "" || c.MainOnly != nil || c.Root != filepath.Dir(c.Path) {
		return false
	}
	abs, err := filepath.Abs(path)
	return err == nil && abs == c.Path && digest(source{path: abs, data: data}, nil) == c.Digest
}

type source struct {
	path string // absolute
	data []byte
	// shown is path as problems and positions name it (DisplayPath), worked out once: it asks
	// for the working directory.
	shown string
}

// assemble parses both files before giving up on either, so that one run reports every problem.
func assemble(root string, main source, local *source) (*Config, error) {
	main.shown = DisplayPath(main.path)
	raw, problems := parseFile(main.shown, main.data, false)
	var localRaw *rawFile
	if local != nil {
		local.shown = DisplayPath(local.path)
		var localProblems []Problem
		localRaw, localProblems = parseFile(local.shown, local.data, true)
		problems = append(problems, localProblems...)
	}
	if localRaw != nil {
		problems = append(problems, localOnlyProblems(localRaw)...)
	}
	// The main file alone, parsed again (the overlay below changes raw): what the stop hook
	// judges with when it sets the local override aside, and what the overrides are measured
	// against.
	var alone *rawFile
	if raw != nil && localRaw != nil {
		alone, _ = parseFile(main.shown, main.data, false)
	}
	// Cross-key checks on a file that could not be read would only add noise.
	if raw != nil && (local == nil || localRaw != nil) {
		if localRaw != nil {
			overlay(raw, localRaw)
		}
		problems = append(problems, validateGates(raw.Gates, root)...)
		problems = append(problems, validateSetup(raw.Setup, root)...)
		problems = append(problems, validateNeeds(raw.Gates, raw.Setup)...)
		problems = append(problems, validateRedact(raw.Redact)...)
		problems = append(problems, validateCache(raw.Cache)...)
	}
	if len(problems) > 0 {
		sortProblems(problems)
		return nil, &Errors{Problems: problems}
	}
	c := resolve(raw)
	c.Path = main.path
	c.Root = root
	c.Digest = digest(main, local)
	c.ContentDigest = contentDigest(main, local)
	c.places = placesOf(raw, main, local)
	if local != nil {
		c.LocalPath = local.path
		if alone != nil && len(validateAlone(alone, root)) == 0 {
			c.MainOnly = resolve(alone)
			c.MainOnly.Path, c.MainOnly.Root = main.path, root
			c.MainOnly.Digest, c.MainOnly.ContentDigest = c.Digest, c.ContentDigest
			c.MainOnly.places = placesOf(alone, main, nil)
		}
		c.Overrides = overridesOf(localRaw, c.MainOnly, c)
	}
	return c, nil
}

// validateAlone is assemble's cross-key checks, for the main file without its local override.
func validateAlone(raw *rawFile, root string) []Problem {
	var problems []Problem
	problems = append(problems, validateGates(raw.Gates, root)...)
	problems = append(problems, validateSetup(raw.Setup, root)...)
	problems = append(problems, validateNeeds(raw.Gates, raw.Setup)...)
	problems = append(problems, validateRedact(raw.Redact)...)
	problems = append(problems, validateCache(raw.Cache)...)
	return problems
}

func digest(main source, local *source) string {
	h := sha256.New()
	for _, src := range []*source{&main, local} {
		if src == nil {
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", src.path, len(src.data))
		h.Write(src.data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func contentDigest(main source, local *source) string {
	h := sha256.New()
	for _, src := range []*source{&main, local} {
		if src == nil {
			fmt.Fprint(h, "-\x00")
			continue
		}
		fmt.Fprintf(h, "%d\x00", len(src.data))
		h.Write(src.data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readConfig reads at most one byte more than a config may hold, so that parseFile can report
// an oversized file without the whole of it ever being in memory. A file that is not a regular
// file, or that someone else could have planted (see trust), is refused without being read.
func readConfig(path string, t trust, deadline time.Time) ([]byte, error) {
	f, info, err := safefile.Open(path, deadline)
	if err != nil {
		return nil, notRegular(path, err)
	}
	defer f.Close()
	if err := t.checkFile(path, info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(deadlineReader{f, deadline}, maxConfigBytes+1))
	if err != nil {
		return nil, notRegular(path, err)
	}
	return data, nil
}

// deadlineReader stops a read loop at the deadline even on files that do not support one.
type deadlineReader struct {
	r        io.Reader
	deadline time.Time
}

func (d deadlineReader) Read(p []byte) (int, error) {
	if time.Now().After(d.deadline) {
		return 0, os.ErrDeadlineExceeded
	}
	return d.r.Read(p)
}
