package build_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/testbin"
)

// binary builds the greentokens command for a test that runs it as a
// process (to kill it, to signal it, or to run two at once): once per test
// run, with the crash tests' tag (internal/testbin), into snaptest.Root.
func binary(t testing.TB) string {
	t.Helper()
	return command.For(t, snaptest.Root, "../../cmd/greentokens")
}

var command testbin.Builder

// binaryBuild builds src's snapshot with the binary bin into a new folder
// and returns its files: what every build of bin from src must give.
func binaryBuild(t *testing.T, bin string, src fetch.Dir) map[string]string {
	t.Helper()
	out := t.TempDir()
	if b, err := buildCmd(bin, out, src).CombinedOutput(); err != nil {
		t.Fatalf("greentokens build: %v\n%s", err, b)
	}
	return snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))
}

// buildCmd is a greentokens build of src's leaderboard and Ember files
// into out.
func buildCmd(bin, out string, src fetch.Dir, env ...string) *exec.Cmd {
	cmd := exec.Command(bin, "build", "--out", out, "--date", snaptest.SeedDate, "--retrieved", snaptest.SeedFetched,
		"--from-leaderboard", src.Leaderboard, "--from-ember", src.Ember)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// TestKilledBuild kills a build (SIGKILL, no clean-up) at each of its
// checkpoints: before the rename there must be no snapshot, after it the
// complete one; and the next build removes the leftovers and succeeds.
func TestKilledBuild(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	bin := binary(t)
	want := binaryBuild(t, bin, snaptest.SmallSource(t))
	for _, point := range []string{crashtest.SourceArchived, crashtest.MidFile, crashtest.Manifest, crashtest.Validated, crashtest.Rename, crashtest.Renamed} {
		t.Run(point, func(t *testing.T) {
			out := t.TempDir()
			cmd := buildCmd(bin, out, snaptest.SmallSource(t), crashtest.KillEnv+"="+point)
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the build was not killed at %s: %v", point, err)
			}
			snap := filepath.Join(out, snaptest.SeedDate)
			_, statErr := os.Stat(snap)
			if point == crashtest.Renamed {
				if diff := cmp.Diff(want, snaptest.Tree(t, snap)); diff != "" {
					t.Errorf("the snapshot after a kill at %s is not the complete one:\n%s", point, diff)
				}
			} else if !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("a build killed at %s left %s (%v)", point, snap, statErr)
			}

			// The next run cleans up and ends with the complete snapshot.
			var stderr bytes.Buffer
			next := buildCmd(bin, out, snaptest.SmallSource(t))
			next.Stderr = &stderr
			if err := next.Run(); err != nil {
				t.Fatalf("the build after the kill failed: %v\n%s", err, stderr.String())
			}
			if point != crashtest.Renamed && !strings.Contains(stderr.String(), "leftover") {
				t.Errorf("the next build did not say it removed the leftover:\n%s", stderr.String())
			}
			if diff := cmp.Diff(want, snaptest.Tree(t, snap)); diff != "" {
				t.Errorf("the snapshot after recovery differs:\n%s", diff)
			}
			entries, _ := os.ReadDir(out)
			if len(entries) != 2 {
				t.Errorf("the output folder holds %d entries after recovery, want the snapshot and the lock", len(entries))
			}
		})
	}
}

// TestConcurrentBuilds starts two builds of the same date from different
// data at once (seedSource's and otherSource's): one writes its snapshot, the other waits for the
// lock, then finds other content and fails with the output-conflict exit
// code. The result is exactly one of the two whole builds, never a mix.
func TestConcurrentBuilds(t *testing.T) {
	snaptest.Slow(t)
	bin := binary(t)
	a, b := binaryBuild(t, bin, snaptest.SmallSource(t)), binaryBuild(t, bin, snaptest.SmallOtherSource(t))
	for round := 0; round < 3; round++ {
		out := t.TempDir()
		cmds := []*exec.Cmd{buildCmd(bin, out, snaptest.SmallSource(t)), buildCmd(bin, out, snaptest.SmallOtherSource(t))}
		errs := make([]bytes.Buffer, 2)
		for i, c := range cmds {
			c.Stderr = &errs[i]
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
		}
		codes := make([]int, 2)
		for i, c := range cmds {
			c.Wait()
			codes[i] = c.ProcessState.ExitCode()
		}
		got := snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))
		switch {
		case cmp.Equal(got, a):
			if codes[0] != 0 || codes[1] != 6 {
				t.Errorf("round %d: A's snapshot won but exit codes are %v, want [0 6]\n%s", round, codes, errs[1].String())
			}
		case cmp.Equal(got, b):
			if codes[1] != 0 || codes[0] != 6 {
				t.Errorf("round %d: B's snapshot won but exit codes are %v, want [6 0]\n%s", round, codes, errs[0].String())
			}
		default:
			t.Fatalf("round %d: the snapshot is neither build whole (exit codes %v)", round, codes)
		}
		for i, code := range codes {
			if code == 6 && !strings.Contains(errs[i].String(), "--replace") {
				t.Errorf("round %d: the losing build does not say why:\n%s", round, errs[i].String())
			}
		}
	}
}

// TestUnusableOutputFolder: an output path that cannot hold snapshots is a
// clear output-conflict error.
func TestUnusableOutputFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := snaptest.Build(t, file, snaptest.SmallSource(t))
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "not-a-folder") {
		t.Errorf("got %v; want failure.ErrConflict naming the folder", err)
	}
}

// TestFullDisk builds into a small tmpfs: a build that runs out of space
// fails with a clear error, leaves nothing behind, and the earlier snapshot
// is untouched. It needs root to mount the tmpfs (CI runs as root).
func TestFullDisk(t *testing.T) {
	out := t.TempDir()
	if err := syscall.Mount("tmpfs", out, "tmpfs", 0, "size=8m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); the full-disk case needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(out, 0) })
	earlier, err := build.Build(context.Background(), build.Options{Out: out, Date: "2026-09-20", Retrieved: snaptest.SeedFetched,
		Source: snaptest.SmallSource(t), NoGrid: true})
	if err != nil {
		t.Fatal(err)
	}
	before := snaptest.Tree(t, earlier.Dir)
	// Leave about 300 KB free: less than a snapshot needs.
	var st syscall.Statfs_t
	if err := syscall.Statfs(out, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail)*int64(st.Bsize) - 300<<10
	if err := os.WriteFile(filepath.Join(out, "filler"), make([]byte, free), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = snaptest.Build(t, out, snaptest.SmallSource(t))
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("build on a full disk: %v; want a clear out-of-space error", err)
	}
	if diff := cmp.Diff(before, snaptest.Tree(t, earlier.Dir)); diff != "" {
		t.Errorf("the earlier snapshot changed:\n%s", diff)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != store.LockFile && e.Name() != "filler" && e.Name() != "2026-09-20" {
			t.Errorf("the failed build left %s", e.Name())
		}
	}
}
