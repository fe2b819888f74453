package verify

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// The benchmarks of whole builds and verifies, which `make bench` runs and
// prints as one table (internal/benchtable):
//
//   - BenchmarkFloor: a plain read, and a read with sha256, of ember-synth's
//     CSV (../shared/tools/ember-synth; about 40 MB at scale 1, 160 MB at
//     scale 4): the floor the other figures are divided by, measured in the
//     same run;
//   - BenchmarkOfflineBuild and BenchmarkOfflineVerify: the whole offline
//     build from the seeds' leaderboard version and that CSV, and a verify
//     of the snapshot it wrote, at scale 1 and 4 (bytes: the CSV's);
//   - BenchmarkTenThousandModels: a build and a verify of the 10,000-model
//     leaderboard of TestTenThousandModels with the sample's Ember file
//     (bytes: the sources');
//   - BenchmarkThousandModelsSynth: a build and a verify of a 1,000-model
//     leaderboard with ember-synth's CSV at scale 1 (bytes: the sources'):
//     the whole job at a size where neither the leaderboard nor the CSV
//     dwarfs the other.
//
// Each build or verify runs in a child process (this test binary, run
// again with benchChildEnv set), so that its peak resident memory is its
// own: the child runs the stage (build.Build, Verify, as the
// command does) and reports its allocations; the parent reports the
// child's peak RSS (peak-RSS-MiB) and its allocations (allocs/op). The
// time is the child's, from start to exit.

// benchChildEnv holds the stage a child runs (a benchJob, JSON).
const benchChildEnv = "GREENTOKENS_BENCH_CHILD"

// benchProfileEnv, when set to a path P, makes each child write a CPU
// profile of its stage to P.OP.PID (for go tool pprof).
const benchProfileEnv = "GREENTOKENS_BENCH_CPUPROFILE"

// benchMemProfileEnv, when set to a path P, makes each child write a
// profile of what its stage allocated (every allocation sampled at the
// runtime's default rate) to P.OP.PID.
const benchMemProfileEnv = "GREENTOKENS_BENCH_MEMPROFILE"

// checkerMemoryLimit is the soft memory limit the command runs build and
// verify under (cmd/greentokens/memory.go): a child sets it as they do.
const checkerMemoryLimit = 384 << 20

// benchJob is a stage for a child process.
type benchJob struct {
	Op          string // "build" or "verify"
	Out         string // build: the output folder
	Leaderboard string // build: the leaderboard folder
	Ember       string // build: the Ember CSV
	Dir         string // verify: the snapshot
}

// benchReport is what a child says of its run.
type benchReport struct {
	Mallocs, Bytes uint64 // allocations, and bytes allocated
}

// A child runs its stage before any test or flag.
func init() {
	if spec := os.Getenv(benchChildEnv); spec != "" {
		os.Exit(benchChild(spec))
	}
}

func benchChild(spec string) int {
	var job benchJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// The soft memory limit of the command the child stands for: build
	// and verify run the checker, under the checker's limit.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(checkerMemoryLimit)
	}
	if path := os.Getenv(benchProfileEnv); path != "" {
		f, err := os.Create(fmt.Sprintf("%s.%s.%d", path, job.Op, os.Getpid()))
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	if path := os.Getenv(benchMemProfileEnv); path != "" {
		defer func() {
			f, err := os.Create(fmt.Sprintf("%s.%s.%d", path, job.Op, os.Getpid()))
			if err == nil {
				err = errors.Join(pprof.Lookup("allocs").WriteTo(f, 0), f.Close())
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx := context.Background()
	switch job.Op {
	case "build":
		// As TestTenThousandModels's --max-json-mib 64: the 10,000-model
		// task file is over the default 16 MiB cap.
		src := fetch.Dir{Leaderboard: job.Leaderboard, Ember: job.Ember, Origins: fetch.DefaultOrigins(), MaxBytes: 64 << 20}
		if _, err := build.Build(ctx, build.Options{Out: job.Out, Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched, Source: src}); err != nil {
			fmt.Fprintln(os.Stderr, "build:", err)
			return 1
		}
	case "verify":
		rep, err := Verify(ctx, regfile.DirFS(job.Dir))
		if err == nil {
			err = rep.Err()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "verify:", err)
			return 1
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown op", job.Op)
		return 2
	}
	runtime.ReadMemStats(&after)
	json.NewEncoder(os.Stdout).Encode(benchReport{Mallocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc})
	return 0
}

// childUsage is what the kernel says of a child's run: its peak RSS in
// bytes and the CPU time it took in user space and in the kernel.
type childUsage struct {
	peak      int64
	user, sys time.Duration
}

// runChild runs job in a child process and returns its report and usage.
func runChild(b *testing.B, job benchJob) (benchReport, childUsage) {
	b.Helper()
	spec, err := json.Marshal(job)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchChildEnv+"="+string(spec))
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		b.Fatalf("%s: %v\n%s", job.Op, err, stderr)
	}
	var rep benchReport
	if err := json.Unmarshal(out, &rep); err != nil {
		b.Fatalf("%s: the child's report %q: %v", job.Op, out, err)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return rep, childUsage{peak: ru.Maxrss << 10, user: time.Duration(ru.Utime.Nano()), sys: time.Duration(ru.Stime.Nano())}
}

// benchStage runs job b.N times, each in a child (a build into a new
// folder each time), and reports the child's allocs/op and B/op, its
// peak-RSS-MiB, and the CPU time it took per run in user space
// (user-CPU-s) and in the kernel (sys-CPU-s): the kernel's share swings
// with the disk's state (creating files after many were deleted), the
// user's with the code.
func benchStage(b *testing.B, job benchJob, bytes int64) {
	b.SetBytes(bytes)
	b.ReportAllocs()
	var mallocs, allocated uint64
	var peak int64
	var user, sys time.Duration
	for i := 0; i < b.N; i++ {
		if job.Op == "build" {
			b.StopTimer()
			job.Out = filepath.Join(b.TempDir(), "out")
			b.StartTimer()
		}
		rep, u := runChild(b, job)
		mallocs += rep.Mallocs
		allocated += rep.Bytes
		peak = max(peak, u.peak)
		user += u.user
		sys += u.sys
	}
	b.ReportMetric(float64(mallocs)/float64(b.N), "allocs/op")
	b.ReportMetric(float64(allocated)/float64(b.N), "B/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(user.Seconds()/float64(b.N), "user-CPU-s")
	b.ReportMetric(sys.Seconds()/float64(b.N), "sys-CPU-s")
}

// builtSnapshot builds a snapshot for a verify benchmark, untimed.
func builtSnapshot(b *testing.B, lb, ember string) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), "out")
	runChild(b, benchJob{Op: "build", Out: out, Leaderboard: lb, Ember: ember})
	return filepath.Join(out, snaptest.SeedDate)
}

func size(b *testing.B, paths ...string) int64 {
	b.Helper()
	var n int64
	for _, p := range paths {
		err := filepath.WalkDir(p, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			n += fi.Size()
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return n
}

var benchScales = []int{1, 4}

// BenchmarkFloor reads ember-synth's CSV, plainly and with sha256: the
// floor of the Ember stage (each byte read once and hashed once); and
// with encoding/csv (ReuseRecord, every record read and dropped): what
// each of the build's two readings of the CSV, the builder's and the
// checker's, costs before it does anything with a record.
func BenchmarkFloor(b *testing.B) {
	for _, scale := range benchScales {
		csv := gridtest.SynthCSV(b, scale)
		b.Run(fmt.Sprintf("read+csv/scale=%d", scale), func(b *testing.B) {
			b.SetBytes(size(b, csv))
			b.ReportAllocs()
			for b.Loop() {
				readRecords(b, csv)
			}
		})
		for _, hash := range []bool{false, true} {
			name := fmt.Sprintf("read/scale=%d", scale)
			if hash {
				name = fmt.Sprintf("read+sha256/scale=%d", scale)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(size(b, csv))
				b.ReportAllocs()
				buf := make([]byte, 1<<20)
				for b.Loop() {
					f, err := os.Open(csv)
					if err != nil {
						b.Fatal(err)
					}
					var w io.Writer = io.Discard
					if hash {
						w = sha256.New()
					}
					if _, err := io.CopyBuffer(struct{ io.Writer }{w}, struct{ io.Reader }{f}, buf); err != nil {
						b.Fatal(err)
					}
					f.Close()
				}
			})
		}
	}
}

// readRecords reads every record of the CSV at path with encoding/csv.
func readRecords(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	for {
		_, err := r.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOfflineBuild is the whole offline build with ember-synth's CSV.
func BenchmarkOfflineBuild(b *testing.B) {
	for _, scale := range benchScales {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			csv := gridtest.SynthCSV(b, scale)
			benchStage(b, benchJob{Op: "build", Leaderboard: snaptest.SeedLeaderboard, Ember: csv}, size(b, csv))
		})
	}
}

// BenchmarkOfflineVerify verifies the snapshot of an offline build with
// ember-synth's CSV.
func BenchmarkOfflineVerify(b *testing.B) {
	for _, scale := range benchScales {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			csv := gridtest.SynthCSV(b, scale)
			dir := builtSnapshot(b, snaptest.SeedLeaderboard, csv)
			b.ResetTimer()
			benchStage(b, benchJob{Op: "verify", Dir: dir}, size(b, csv))
		})
	}
}

// BenchmarkTenThousandModels builds, then verifies, a snapshot of the
// 10,000-model leaderboard (30,000 Text Conversation rows, a 22 MB task
// file) with the sample's Ember file.
func BenchmarkTenThousandModels(b *testing.B) { benchWholeJob(b, scaleModels, snaptest.SampleEmber) }

// BenchmarkThousandModelsSynth builds, then verifies, a snapshot of a
// 1,000-model leaderboard (3,000 Text Conversation rows) with
// ember-synth's CSV at scale 1 (about 40 MB).
func BenchmarkThousandModelsSynth(b *testing.B) { benchWholeJob(b, 1000, gridtest.SynthCSV(b, 1)) }

// benchWholeJob builds, then verifies, a snapshot of a leaderboard of the
// given number of models (writeScaleLeaderboard) with the Ember CSV at
// ember (bytes: the sources').
func benchWholeJob(b *testing.B, models int, ember string) {
	lb := filepath.Join(b.TempDir(), "leaderboard")
	start := time.Now()
	writeScaleLeaderboard(b, lb, models)
	b.Logf("wrote the %d-model leaderboard in %v", models, time.Since(start).Round(time.Millisecond))
	bytes := size(b, lb, ember)
	b.Run("build", func(b *testing.B) {
		benchStage(b, benchJob{Op: "build", Leaderboard: lb, Ember: ember}, bytes)
	})
	b.Run("verify", func(b *testing.B) {
		dir := builtSnapshot(b, lb, ember)
		b.ResetTimer()
		benchStage(b, benchJob{Op: "verify", Dir: dir}, bytes)
	})
}
