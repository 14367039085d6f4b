package main

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Println("TestMain sets up")
	code := m.Run()
	fmt.Println("TestMain tears down")
	os.Exit(code)
}

func TestOK(t *testing.T) { t.Log("under TestMain") }
