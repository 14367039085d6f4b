//go:build race

package runner

// raceFactor stretches the tests' hang guards under the race detector, which slows gauntlet's
// own code several times over.
const raceFactor = 4
