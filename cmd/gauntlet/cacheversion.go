package main

import "github.com/gauntlet-dev/gauntlet/internal/cache"

// setCacheVersion puts gauntlet's version and commit into every cache key: another build may
// judge the same gate differently.
func setCacheVersion() {
	v, c := versionInfo()
	cache.ToolVersion = v + " " + c
}
