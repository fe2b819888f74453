package snapshots

import (
	"math"
	"os"
	"runtime/debug"
)

// MemoryLimit is the soft memory limit the build and verify commands set
// (LimitMemory). Verify runs its checks and its rebuild at once, which
// together hold about twice what either does (70 MB live at 10,000 models),
// and the garbage collector's default pacing lets the heap grow to twice
// what is live: measured at 10,000 models, 175 to 195 MiB resident without
// a limit, 137 to 141 MiB with this one, for 5% more time. A build holds
// less (45 to 70 MB live at 10,000 models) but its peak swings with the
// collector's timing, 114 to 143 MiB between runs of the same build; the
// limit caps the swing. Past the limit (a snapshot far larger than that)
// the collector works harder, at most about half of the CPU, the
// runtime's cap: the command slows, it does not fail.
const MemoryLimit = 128 << 20

// LimitMemory lowers the process's soft memory limit
// (runtime/debug.SetMemoryLimit) to limit, unless GOMEMLIMIT sets one (the
// user's, higher or lower, stands) or it is lower already, and returns
// what restores it.
func LimitMemory(limit int64) (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev <= limit || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// BuildGCPercent is the collector's pacing a build sets (PaceCollector):
// with the soft memory limit capping the heap, letting it grow to three
// times what is live instead of two before a collection halves the
// collections of a large build. On 2 cores a 10,000-model build takes
// about 5% less time and CPU at 200 than at the default 100, with the same
// peak (the limit's); an offline build of ember-synth's CSV holds 6 to
// 7 MiB more in the same time. Verify, which runs against the limit most
// of the time, gains nothing and keeps the default.
const BuildGCPercent = 200

// PaceCollector sets the collector's pacing (runtime/debug.SetGCPercent)
// to percent, and returns what restores it. It does so only under a soft
// memory limit (LimitMemory's, or one GOMEMLIMIT gives), which caps what
// the slower pacing lets the heap grow to; and not when GOGC sets the
// pacing (the user's stands).
func PaceCollector(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" || debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return func() {}
	}
	prev := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(prev) }
}
