package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// The memory bounds of the children. A build and a verify run the checker,
// which decodes each file whole (index.json too), under the checker's soft
// memory limit (cmd/greentokens/memory.go); diff runs no checker.
const (
	scaleMaxRSS     = 512 << 20 // build, verify
	scaleDiffMaxRSS = 150 << 20 // diff
)

// TestTenThousandModels builds, with the greentokens binary in a child
// process, a snapshot from a leaderboard of 10,000 models (30,000 Text
// Conversation rows) and the sample's Ember file, into an empty output
// folder (date A): it must succeed, write one model file per model, and
// stay under its memory bound, the child's peak resident set (a memory
// check, not a time one). Then, each as a child with its bound:
//
//   - a build of a later date B from the same leaderboard into the same
//     folder, as every real daily build is: it compares with A (the
//     removal guard loads both snapshots and diffs them) and logs the
//     diff's summary line, "no data change";
//   - then greentokens diff A B;
//   - and beside those two, greentokens verify A (validation, a full
//     rebuild in a temporary folder, and the tree comparison), which only
//     reads A: the test takes the longest of the two, not their sum.
//
// The time of each stage of the builds, from their logs, is logged (B's
// and verify's times overlap, so each is longer than alone).
func TestTenThousandModels(t *testing.T) {
	snaptest.Slow(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "greentokens")
	gobuild := exec.Command("go", "build", "-o", bin, "../../cmd/greentokens")
	if out, err := gobuild.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	lb := filepath.Join(tmp, "leaderboard")
	size := writeScaleLeaderboard(t, lb, scaleModels)
	t.Logf("%d models, %d rows, task file %.1f MB; memory bound %d MiB (diff: %d MiB)",
		scaleModels, scaleModels*scaleRowsPerModel, float64(size)/1e6, scaleMaxRSS>>20, scaleDiffMaxRSS>>20)

	out := filepath.Join(tmp, "out")
	const laterDate = "2026-09-28" // B, the day after snaptest.SeedDate (A)
	build := func(date string) []string {
		return []string{"build", "--date", date, "--retrieved", snaptest.SeedFetched, "--out", out,
			"--from-leaderboard", lb, "--from-ember", snaptest.SampleEmber, "--log-format", "json",
			"--max-json-mib", "64"} // the task file is over the 16 MiB cap
	}

	// A: into an empty folder.
	start := time.Now()
	stderr, _, ok := runScale(t, bin, "build A (empty output folder)", scaleMaxRSS, build(snaptest.SeedDate)...)
	if !ok {
		t.FailNow()
	}
	t.Logf("stages of build A, from its log:\n%s", stages(start, stderr))
	models, err := filepath.Glob(filepath.Join(out, snaptest.SeedDate, "models", "*.json"))
	if err != nil || len(models) != scaleModels {
		t.Errorf("%d model files (%v), want %d", len(models), err, scaleModels)
	}

	// The manifest.json of 10,000 models is well inside its bound (a
	// quarter of it), which every reader holds it to.
	if fi, err := os.Stat(filepath.Join(out, snaptest.SeedDate, format.ManifestPath)); err != nil || fi.Size()*4 > format.MaxManifestBytes {
		t.Errorf("manifest.json of %d models: %v bytes (%v); want at most a quarter of format.MaxManifestBytes, %d", scaleModels, fi.Size(), err, format.MaxManifestBytes)
	} else {
		t.Logf("manifest.json of %d models: %d bytes, %.0f%% of its bound", scaleModels, fi.Size(), float64(fi.Size())*100/format.MaxManifestBytes)
	}

	// verify A, beside B and the diff (each child's peak RSS is its own):
	// it only reads A, as B's removal guard does.
	verified := make(chan []byte)
	go func() {
		_, stdout, _ := runScale(t, bin, "verify A", scaleMaxRSS, "verify", filepath.Join(out, snaptest.SeedDate))
		verified <- stdout
	}()

	// B: the removal guard compares it with A.
	start = time.Now()
	stderr, _, ok = runScale(t, bin, "build B (an earlier snapshot present)", scaleMaxRSS, build(laterDate)...)
	if ok {
		t.Logf("stages of build B, from its log:\n%s", stages(start, stderr))
		if want := fmt.Sprintf("%d models, no data change", scaleModels); !bytes.Contains(stderr, []byte(`"summary":"`+want+`"`)) {
			t.Errorf("build B's log has no guard summary %q:\n%s", want, tail(string(stderr), 2000))
		}

		// diff A B.
		_, stdout, _ := runScale(t, bin, "diff A B", scaleDiffMaxRSS, "diff", filepath.Join(out, snaptest.SeedDate), filepath.Join(out, laterDate))
		if want := fmt.Sprintf("%d models, no data change\n", scaleModels); !strings.HasPrefix(string(stdout), want) {
			t.Errorf("diff A B says:\n%s\nwant a first line %q", tail(string(stdout), 2000), want)
		}
	}

	if stdout := <-verified; !strings.Contains(string(stdout), ": OK: ") {
		t.Errorf("verify A says:\n%s", tail(string(stdout), 2000))
	}
}

// runScale runs the greentokens binary with args as a child, reports its
// time and peak RSS, and fails the test when it fails or its peak RSS is
// over maxRSS. It returns the child's stderr and stdout, and whether
// it exited 0. It may run on another goroutine than the test's.
func runScale(t *testing.T, bin, what string, maxRSS int64, args ...string) (stderr, stdout []byte, ok bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if lim := os.Getenv("SCALE_GOMEMLIMIT"); lim != "" {
		cmd.Env = append(os.Environ(), "GOMEMLIMIT="+lim)
	}
	var eb, ob bytes.Buffer
	cmd.Stderr, cmd.Stdout = &eb, &ob
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		t.Errorf("greentokens %s: %v\nstdout:\n%s\nstderr:\n%s", what, err, tail(ob.String(), 2000), tail(eb.String(), 2000))
		return eb.Bytes(), ob.Bytes(), false
	}
	ru, isRusage := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !isRusage {
		t.Errorf("%s: no rusage for the child (%T)", what, cmd.ProcessState.SysUsage())
		return eb.Bytes(), ob.Bytes(), false
	}
	peak := ru.Maxrss << 10 // KiB on Linux
	t.Logf("%s: %v, peak RSS %.1f MiB", what, elapsed.Round(time.Millisecond), float64(peak)/(1<<20))
	if peak >= maxRSS {
		t.Errorf("%s: peak RSS %.1f MiB, over the %d MiB bound", what, float64(peak)/(1<<20), maxRSS>>20)
	}
	return eb.Bytes(), ob.Bytes(), true
}

// stages lists the build's log messages (JSON lines) with the time each
// took since the one before; the last one ("wrote the snapshot") includes
// validate.Check.
func stages(start time.Time, log []byte) string {
	var b strings.Builder
	prev := start
	for _, line := range bytes.Split(log, []byte("\n")) {
		var rec struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Time.IsZero() {
			continue
		}
		fmt.Fprintf(&b, "  %8v  %s\n", rec.Time.Sub(prev).Round(time.Millisecond), rec.Msg)
		prev = rec.Time
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
