//go:build !unix

package git

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
