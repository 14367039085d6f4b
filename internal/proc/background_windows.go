//go:build windows

package proc

// setpriority is left to the Windows scheduler: a judge there runs at normal priority.
func setpriority(int) {}
