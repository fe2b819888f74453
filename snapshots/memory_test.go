package snapshots

import (
	"runtime/debug"
	"testing"
)

// TestLimitMemory: LimitMemory lowers the soft memory limit and restores
// it, and leaves a lower limit, or one GOMEMLIMIT gives, as it is.
func TestLimitMemory(t *testing.T) {
	orig := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(orig) })

	debug.SetMemoryLimit(1 << 40)
	restore := LimitMemory(MemoryLimit)
	if got := debug.SetMemoryLimit(-1); got != MemoryLimit {
		t.Errorf("limit %d while limited, want %d", got, MemoryLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("limit %d after restoring, want %d", got, int64(1<<40))
	}

	debug.SetMemoryLimit(64 << 20)
	LimitMemory(MemoryLimit)()
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("a lower limit became %d, want it kept (%d)", got, 64<<20)
	}

	// A limit the user gave (GOMEMLIMIT), even a higher one, stands.
	t.Setenv("GOMEMLIMIT", "1TiB")
	debug.SetMemoryLimit(1 << 40)
	restore = LimitMemory(MemoryLimit)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT's limit became %d while limited, want it kept", got)
	}
	restore()
}
