package main

import (
	"runtime/debug"
	"testing"
)

// TestLimitMemory: limitMemory sets the soft memory limit, from a higher
// limit or a lower one, and leaves one GOMEMLIMIT gives as it is.
func TestLimitMemory(t *testing.T) {
	orig := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(orig) })

	t.Setenv("GOMEMLIMIT", "")
	for _, limit := range []int64{defaultMemoryLimit, checkerMemoryLimit} {
		for _, before := range []int64{1 << 40, 64 << 20} {
			debug.SetMemoryLimit(before)
			limitMemory(limit)
			if got := debug.SetMemoryLimit(-1); got != limit {
				t.Errorf("limit %d after limitMemory(%d) from %d", got, limit, before)
			}
		}
	}

	// A limit the user gave (GOMEMLIMIT), even a higher one, stands.
	t.Setenv("GOMEMLIMIT", "1TiB")
	debug.SetMemoryLimit(1 << 40)
	limitMemory(checkerMemoryLimit)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT's limit became %d, want it kept", got)
	}
}
