package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gauntlet-dev/gauntlet/config"
)

// loadConfig loads the config as run does, but a -c FILE that does not exist is a usage mistake
// (exit 2), not a failure of gauntlet.
func loadConfig(ios *IOStreams, file string) (*config.Config, error) {
	var dir string
	if file == "" {
		wd, err := ios.Getwd()
		if err != nil {
			return nil, fmt.Errorf("find config: %w", err)
		}
		dir = wd
	}
	cfg, err := config.Load(config.Options{Dir: dir, File: file})
	if file != "" && errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("--config %s: no such file", file)
	}
	return cfg, err
}

// projectRoot finds the project root (the config file's directory) without loading the config:
// commands that only look after .gauntlet/ must keep working while the config is broken.
func projectRoot(ios *IOStreams, file string) (string, error) {
	if file == "" {
		wd, err := ios.Getwd()
		if err != nil {
			return "", fmt.Errorf("find config: %w", err)
		}
		found, err := config.Find(wd)
		if err != nil {
			return "", err
		}
		return filepath.Dir(found), nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("config path %s: %w", file, err)
	}
	if info, err := os.Stat(abs); err != nil || !info.Mode().IsRegular() {
		return "", usagef("--config %s: no such file", file)
	}
	return filepath.Dir(abs), nil
}
