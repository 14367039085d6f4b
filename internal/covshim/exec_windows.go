//go:build windows

package covshim

import (
	"errors"
	"os"
	"os/exec"
)

// replaceProcess runs the tool as the shim's child, its streams the shim's, and exits with its
// status: Windows has no exec.
func replaceProcess(tool []string) error {
	cmd := exec.Command(tool[0], tool[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
