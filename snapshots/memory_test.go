package snapshots

import (
	"runtime/debug"
	"testing"
)

// TestLimitMemory: LimitMemory sets the soft memory limit to MemoryLimit,
// from a higher limit or a lower one, and leaves one GOMEMLIMIT gives as
// it is.
func TestLimitMemory(t *testing.T) {
	orig := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(orig) })

	t.Setenv("GOMEMLIMIT", "")
	for _, before := range []int64{1 << 40, 64 << 20} {
		debug.SetMemoryLimit(before)
		LimitMemory()
		if got := debug.SetMemoryLimit(-1); got != MemoryLimit {
			t.Errorf("limit %d after LimitMemory from %d, want %d", got, before, MemoryLimit)
		}
	}

	// A limit the user gave (GOMEMLIMIT), even a higher one, stands.
	t.Setenv("GOMEMLIMIT", "1TiB")
	debug.SetMemoryLimit(1 << 40)
	LimitMemory()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT's limit became %d, want it kept", got)
	}
}
