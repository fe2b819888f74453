package snapshots

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// BenchmarkOfflineBuild runs the whole offline build as a process, with
// the full-size Ember CSV that ../shared/tools/ember-synth writes (about
// 40 MB; scale 4 with GREENTOKENS_BENCH_SCALE=4), and reports the CSV's
// throughput through the build and the process's peak resident memory.
// The aim: under 150 MB peak. `make bench` runs it.
func BenchmarkOfflineBuild(b *testing.B) {
	scale := 1
	if os.Getenv("GREENTOKENS_BENCH_SCALE") == "4" {
		scale = 4
	}
	csv := gridtest.SynthCSV(b, scale)
	st, err := os.Stat(csv)
	if err != nil {
		b.Fatal(err)
	}
	bin := binary(b)
	b.SetBytes(st.Size())
	b.ResetTimer()
	var peakKiB int64
	for i := 0; i < b.N; i++ {
		out := b.TempDir()
		cmd := exec.Command(bin, "build", "--out", out, "--date", seedDate, "--retrieved", seedFetched,
			"--from-leaderboard", leaderboardDir(seedVersion), "--from-ember", csv, "--log-format", "json")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build: %v\n%s", err, msg)
		}
		peakKiB = max(peakKiB, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	}
	b.ReportMetric(float64(peakKiB)/1024, "peak-RSS-MiB")
}
