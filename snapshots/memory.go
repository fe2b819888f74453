package snapshots

import (
	"os"
	"runtime/debug"
)

// MemoryLimit is the Go runtime's soft memory limit for every greentokens
// command (LimitMemory), unless GOMEMLIMIT sets one. The commands that run
// the checker, build, rebuild and verify, raise it to the checker's own
// (cmd/greentokens/memory.go): the checker decodes each file whole.
//
// The other commands must stay under 150 MiB peak resident memory. By
// default (GOGC=100) the garbage collector lets the heap grow to twice the
// live data before it collects, so a stage that holds 50 MiB can take 100
// MiB and more, plus the runtime's own memory. Under the limit the
// collector runs more often as the process nears it instead of growing the
// heap. It is soft: live data above it is not an error (the collector then
// spends at most about half the CPU and the heap grows), so a snapshot far
// larger makes a command slower, not fail. 120 MiB leaves room under 150
// MiB for what the limit does not count (the binary's code and data).
const MemoryLimit = 120 << 20

// LimitMemory sets the process's soft memory limit
// (runtime/debug.SetMemoryLimit) to MemoryLimit, unless GOMEMLIMIT sets
// one: the user's limit, higher or lower, stands ("off" turns it off).
// The command calls it once, before it runs anything.
func LimitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
