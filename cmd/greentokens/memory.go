package main

import (
	"os"
	"runtime/debug"
)

// The soft memory limits the commands run under, the command's policy:
// every command starts under defaultMemoryLimit (main), and the commands
// that run the checker (validate.Check), build, rebuild and verify, raise
// it to checkerMemoryLimit. A GOMEMLIMIT in the environment replaces both
// (the user's limit, higher or lower, stands; "off" turns it off).
//
// The commands but the checker's stay under 150 MiB peak resident memory.
// By default (GOGC=100) the garbage collector lets the heap grow to twice
// the live data before it collects, so a stage that holds 50 MiB can take
// 100 MiB and more, plus the runtime's own memory. Under the limit the
// collector runs more often as the process nears it instead of growing the
// heap. It is soft: live data above it is not an error (the collector then
// spends at most about half the CPU and the heap grows), so a snapshot far
// larger makes a command slower, not fail. 120 MiB leaves room under 150
// MiB for what the limit does not count (the binary's code and data).
//
// The checker decodes each file it checks whole, index.json too, and at
// thousands of models that holds more than defaultMemoryLimit, under
// which the collector would run without pause; its peak under
// checkerMemoryLimit stays under the 512 MiB the scale test holds these
// commands to (docs/performance.md has the figures).
const (
	defaultMemoryLimit = 120 << 20
	checkerMemoryLimit = 384 << 20
)

// limitMemory sets the process's soft memory limit
// (runtime/debug.SetMemoryLimit) to limit, unless GOMEMLIMIT sets one.
func limitMemory(limit int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}
