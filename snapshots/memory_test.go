package snapshots

import (
	"math"
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

// TestPaceCollector: PaceCollector sets the collector's pacing and
// restores it, and leaves it as it is when GOGC gives one or when no
// memory limit caps the heap.
func TestPaceCollector(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	origLimit := debug.SetMemoryLimit(MemoryLimit)
	t.Cleanup(func() { debug.SetMemoryLimit(origLimit) })

	t.Setenv("GOGC", "")
	restore := PaceCollector(BuildGCPercent)
	if got := debug.SetGCPercent(BuildGCPercent); got != BuildGCPercent {
		t.Errorf("pacing %d while paced, want %d", got, BuildGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("pacing %d after restoring, want 100", got)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	restore = PaceCollector(BuildGCPercent)
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GOGC's pacing became %d, want it kept (50)", got)
	}
	restore()

	// No limit (GOMEMLIMIT=off, or none set): the default pacing stays.
	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	restore = PaceCollector(BuildGCPercent)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("without a memory limit the pacing became %d, want 100", got)
	}
	restore()
}
