//go:build bench

// Command empty does nothing: the floor of starting any Go program, for bench/hook.sh.
package main

func main() {}
