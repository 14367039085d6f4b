package runner

import "sync"

// pumpBufferBytes is the chunk in which a gate's output pipe is read.
const pumpBufferBytes = 32 << 10

// pumpBuffers are reused from gate to gate: a run of many short gates would otherwise allocate
// one per gate, whether it prints or not.
var pumpBuffers = sync.Pool{New: func() any { b := make([]byte, pumpBufferBytes); return &b }}
