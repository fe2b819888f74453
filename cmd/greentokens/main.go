// Command greentokens builds, checks and compares dated snapshots of the
// Green Tokens index: the GPU energy that open language models use per
// million output tokens, from the ML.ENERGY Leaderboard, with the carbon it
// carries on every country's grid, from Ember.
//
// Run "greentokens help" for the commands and exit codes.
package main

import (
	"os"
	"runtime/debug"
)

// softMemoryLimit is the Go runtime's soft memory limit unless GOMEMLIMIT
// sets one.
//
// A build must stay under 150 MiB peak resident memory, with ten thousand
// models too. By default (GOGC=100) the garbage collector lets the heap
// grow to twice the live data before it collects, so a stage that holds
// 50 MiB can take 100 MiB and more, plus the runtime's own memory. Under a
// soft limit the collector runs more often as the process nears it instead
// of growing the heap. It is soft: live data above it is not an error (the
// collector then spends at most about half the CPU and the heap grows),
// so it is no substitute for holding little, which the build sees to; it
// keeps garbage from pushing a build that fits over the bound. 120 MiB
// leaves room under 150 MiB for what the limit does not count (the
// binary's code and data).
const softMemoryLimit = 120 << 20

func main() {
	// A GOMEMLIMIT of the user's wins ("off" turns the limit off).
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
