//go:build race

package main

// raceFactor stretches the tests' hang guards under the race detector, which slows gauntlet
// several times over.
const raceFactor = 4
