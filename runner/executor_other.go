//go:build !unix && !windows

package runner

import (
	"context"
	"errors"
	"io"
	"time"
)

// unsupportedExecutor keeps the module building elsewhere; process groups are Unix-only.
type unsupportedExecutor struct{}

func newGroupExecutor(time.Duration, <-chan struct{}) Executor { return unsupportedExecutor{} }

func (unsupportedExecutor) Execute(context.Context, Process, io.Writer) (Exit, error) {
	return noExit, &StartError{Err: errors.New("running gates is only supported on Unix systems")}
}
