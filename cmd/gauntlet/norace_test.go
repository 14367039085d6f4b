//go:build !race

package main

// raceFactor stretches the tests' hang guards under the race detector; without it, 1.
const raceFactor = 1
