package main

import (
	"os"
	"runtime/debug"
)

// checkerMemoryLimit is the soft memory limit of the commands that run the
// checker (validate.Check): build, rebuild and verify. The checker decodes
// each file it checks whole, index.json too, and at thousands of models
// that holds more than snapshots.MemoryLimit, under which the collector
// would run without pause. The peak it allows stays under the 512 MiB the
// scale test holds these commands to; docs/performance.md has the
// figures.
const checkerMemoryLimit = 384 << 20

// limitCheckerMemory sets the process's soft memory limit to
// checkerMemoryLimit, unless GOMEMLIMIT sets one (the user's limit stands,
// as for every command).
func limitCheckerMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(checkerMemoryLimit)
	}
}
