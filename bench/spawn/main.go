//go:build bench

// Command spawn is the floor of a gate runner: it starts each argument as a shell command, all
// at once, and waits for them; bench scripts compare `gauntlet run` with it.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	failed := false
	var mu sync.Mutex
	for _, command := range os.Args[1:] {
		wg.Go(func() {
			cmd := exec.Command("/bin/sh", "-c", command)
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				mu.Lock()
				failed = true
				mu.Unlock()
				fmt.Fprintln(os.Stderr, "spawn:", command+":", err)
			}
		})
	}
	wg.Wait()
	if failed {
		os.Exit(1)
	}
}
