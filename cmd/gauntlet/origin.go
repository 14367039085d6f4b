package main

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/gauntlet-dev/gauntlet/config"
	"github.com/gauntlet-dev/gauntlet/internal/git"
	"github.com/gauntlet-dev/gauntlet/internal/report"
)

// originLimit bounds each git answer the origin reads: a branch name, a commit, a URL.
const originLimit = 4096

// runOrigin is what a run's page names: the repository (its folder, and origin's URL without any
// credentials in it), branch and commit, the config file and this gauntlet. What git cannot say
// (no repository, no commit yet, no remote) is left out.
func runOrigin(ctx context.Context, cfg *config.Config) *report.Origin {
	v, c := versionInfo()
	o := &report.Origin{Repository: filepath.Base(cfg.Root), Root: cfg.Root, Version: versionWords(v, c)}
	if rel, err := filepath.Rel(cfg.Root, cfg.Path); err == nil {
		o.ConfigFile = filepath.ToSlash(rel)
	}
	if out, err := git.Output(ctx, cfg.Root, originLimit, "rev-parse", "--short=12", "HEAD"); err == nil {
		o.Commit = strings.TrimSpace(string(out))
	}
	if out, err := git.Output(ctx, cfg.Root, originLimit, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		o.Branch = strings.TrimSpace(string(out))
	}
	if out, err := git.Output(ctx, cfg.Root, originLimit, "config", "--get", "remote.origin.url"); err == nil {
		o.Remote = withoutCredentials(strings.TrimSpace(string(out)))
	}
	return o
}

// versionWords says gauntlet's version once: a build from a clone without tags has its commit as
// its version ("eab382c eab382c" otherwise), and "unknown" is no commit to name.
func versionWords(v, c string) string {
	if c == "" || c == "unknown" || strings.HasPrefix(v, c) {
		return v
	}
	return v + " (commit " + c + ")"
}

// withoutCredentials drops the user and password of a URL ("https://x:TOKEN@host/repo"): a page
// is shared, a token in it would be too. scp-like addresses (git@host:repo) have none to drop.
func withoutCredentials(remote string) string {
	u, err := url.Parse(remote)
	if err != nil || u.User == nil || u.Host == "" {
		return remote
	}
	u.User = nil
	return u.String()
}
