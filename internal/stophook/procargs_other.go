//go:build !linux

package stophook

// processArgs cannot tell another process's command line here: a judge recorded as running is
// then never signalled (a newer judge waits for the run lock instead), rather than risk
// signalling a process that took a dead judge's pid.
func processArgs(int) ([]string, bool) { return nil, false }
