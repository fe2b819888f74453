package snapshots

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/leadgreen/greentokens/internal/crashtest"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/testbin"
)

// binary builds the greentokens command for a test that runs it as a
// process (to kill it, or to run two at once): once per test run, into
// testRoot.
func binary(t testing.TB) string {
	t.Helper()
	return command.For(t, testRoot, "../cmd/greentokens")
}

var command testbin.Builder

// binaryGenerator is the generator that the binary bin records: an
// in-process build compared with the binary's takes it.
func binaryGenerator(t testing.TB, bin string) format.Generator {
	t.Helper()
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return generatorOf(bi)
}

// buildCmd is a greentokens build of src's leaderboard and Ember files
// into out.
func buildCmd(bin, out string, src fetch.Dir, env ...string) *exec.Cmd {
	cmd := exec.Command(bin, "build", "--out", out, "--date", seedDate, "--retrieved", seedFetched,
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
	reference, err := buildBy(t, t.TempDir(), seedSource(), binaryGenerator(t, bin))
	if err != nil {
		t.Fatal(err)
	}
	want := tree(t, reference.Dir)
	for _, point := range []string{crashtest.SourceArchived, crashtest.MidFile, crashtest.Manifest, crashtest.Validated, crashtest.Rename, crashtest.Renamed} {
		t.Run(point, func(t *testing.T) {
			out := t.TempDir()
			cmd := buildCmd(bin, out, seedSource(), crashtest.KillEnv+"="+point)
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the build was not killed at %s: %v", point, err)
			}
			snap := filepath.Join(out, seedDate)
			_, statErr := os.Stat(snap)
			if point == crashtest.Renamed {
				if diff := cmp.Diff(want, tree(t, snap)); diff != "" {
					t.Errorf("the snapshot after a kill at %s is not the complete one:\n%s", point, diff)
				}
			} else if !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("a build killed at %s left %s (%v)", point, snap, statErr)
			}

			// The next run cleans up and ends with the complete snapshot.
			var stderr bytes.Buffer
			next := buildCmd(bin, out, seedSource())
			next.Stderr = &stderr
			if err := next.Run(); err != nil {
				t.Fatalf("the build after the kill failed: %v\n%s", err, stderr.String())
			}
			if point != crashtest.Renamed && !strings.Contains(stderr.String(), "leftover") {
				t.Errorf("the next build did not say it removed the leftover:\n%s", stderr.String())
			}
			if diff := cmp.Diff(want, tree(t, snap)); diff != "" {
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
	slow(t)
	bin := binary(t)
	gen := binaryGenerator(t, bin)
	wantA, err := buildBy(t, t.TempDir(), seedSource(), gen)
	if err != nil {
		t.Fatal(err)
	}
	wantB, err := buildBy(t, t.TempDir(), otherSource(), gen)
	if err != nil {
		t.Fatal(err)
	}
	a, b := tree(t, wantA.Dir), tree(t, wantB.Dir)
	for round := 0; round < 3; round++ {
		out := t.TempDir()
		cmds := []*exec.Cmd{buildCmd(bin, out, seedSource()), buildCmd(bin, out, otherSource())}
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
		got := tree(t, filepath.Join(out, seedDate))
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
	_, err := build(t, file, seedSource())
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "not-a-folder") {
		t.Errorf("got %v; want failure.ErrConflict naming the folder", err)
	}
}

// TestFullDisk builds into a small tmpfs: a build that runs out of space
// fails with a clear error, leaves nothing behind, and the earlier snapshot
// is untouched. It needs root to mount the tmpfs (CI runs as root).
func TestFullDisk(t *testing.T) {
	out := t.TempDir()
	if err := syscall.Mount("tmpfs", out, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); the full-disk case needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(out, 0) })
	earlier, err := Build(context.Background(), BuildOptions{Out: out, Date: "2026-09-20", Retrieved: seedFetched,
		Source: seedSource(), NoGrid: true})
	if err != nil {
		t.Fatal(err)
	}
	before := tree(t, earlier.Dir)
	// Leave about 300 KB free: less than a snapshot needs.
	var st syscall.Statfs_t
	if err := syscall.Statfs(out, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail)*int64(st.Bsize) - 300<<10
	if err := os.WriteFile(filepath.Join(out, "filler"), make([]byte, free), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = build(t, out, seedSource())
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("build on a full disk: %v; want a clear out-of-space error", err)
	}
	if diff := cmp.Diff(before, tree(t, earlier.Dir)); diff != "" {
		t.Errorf("the earlier snapshot changed:\n%s", diff)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != lockName && e.Name() != "filler" && e.Name() != "2026-09-20" {
			t.Errorf("the failed build left %s", e.Name())
		}
	}
}
