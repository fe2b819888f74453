package build_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// hangGuard is how long a signal test lets a process run before it kills
// it and fails: a guard against a hang, not a measure of speed.
const hangGuard = time.Minute

// signalWhen starts cmd, sends sig once a line of its stderr holds marker,
// and returns its exit code and stderr. A process that never says marker,
// or does not end after the signal, is killed and fails the test.
func signalWhen(t *testing.T, cmd *exec.Cmd, marker string, sig syscall.Signal) (int, string) {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(hangGuard, func() { cmd.Process.Kill() })
	defer guard.Stop()
	var mu sync.Mutex
	var stderr strings.Builder
	seen := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		said := false
		for sc.Scan() {
			mu.Lock()
			stderr.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if !said && strings.Contains(sc.Text(), marker) {
				said = true
				close(seen)
			}
		}
	}()
	select {
	case <-seen:
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	case <-done:
	}
	<-done
	cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
		t.Fatalf("the process was killed by %v (never said %q, or did not end after %v)\n%s", ws.Signal(), marker, sig, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// TestSignalWhileWaitingForTheLock: a build waiting for another's lock
// ends at SIGINT or SIGTERM, exit 1, naming the holder, with nothing
// written; with --lock-timeout it gives up by itself, exit 6.
func TestSignalWhileWaitingForTheLock(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	bin := binary(t)
	out := t.TempDir()
	held, err := store.LockFolder(context.Background(), out, 0, func(string) { t.Error("the lock was not free") })
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release(false)
	pid := "PID " + strconv.Itoa(os.Getpid())
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			code, stderr := signalWhen(t, buildCmd(bin, out, snaptest.SmallSource(t)), "another build holds the output folder; waiting", sig)
			if code != 1 {
				t.Errorf("exit %d, want 1\n%s", code, stderr)
			}
			for _, want := range []string{"interrupted while waiting for the lock of " + out + ", held by " + pid, `holder="` + pid + `"`} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr)
				}
			}
			snaptest.AssertEmpty(t, out)
		})
	}
	t.Run("--lock-timeout", func(t *testing.T) {
		cmd := buildCmd(bin, out, snaptest.SmallSource(t))
		cmd.Args = append(cmd.Args, "--lock-timeout", "200ms")
		b, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 6 {
			t.Errorf("exit %d, want 6\n%s", code, b)
		}
		if want := "another build (" + pid + ") still holds the lock of " + out + " after 200ms (--lock-timeout)"; !strings.Contains(string(b), want) {
			t.Errorf("output does not say %q:\n%s", want, b)
		}
		snaptest.AssertEmpty(t, out)
	})
	if b, err := os.ReadFile(filepath.Join(out, store.LockFile)); err != nil || string(b) != strconv.Itoa(os.Getpid())+"\n" {
		t.Errorf("the waiting builds changed the holder's lock file: %q, %v", b, err)
	}
}

// TestSignalEndsReadCommands: verify, diff, carbon and render end at
// SIGINT or SIGTERM mid-way (at a pause point, crashtest.PauseEnv), exit 1, with no
// report on stdout, and verify leaves no rebuild behind.
func TestSignalEndsReadCommands(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	res, err := snaptest.Build(t, t.TempDir(), snaptest.SmallSource(t))
	if err != nil {
		t.Fatal(err)
	}
	bin := binary(t)
	for _, tc := range []struct {
		args  []string
		point string
	}{
		{[]string{"verify", res.Dir}, crashtest.Rebuild},
		{[]string{"diff", res.Dir, res.Dir}, crashtest.Loaded},
		{[]string{"carbon", "--snapshot", res.Dir, "qwen-3-32b", "IND"}, crashtest.Loaded},
		{[]string{"render", "--snapshot", res.Dir, "qwen-3-32b"}, crashtest.Loaded},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.args[0]+" "+sig.String(), func(t *testing.T) {
				tmp := t.TempDir()
				cmd := exec.Command(bin, tc.args...)
				cmd.Env = append(os.Environ(), crashtest.PauseEnv+"="+tc.point, "TMPDIR="+tmp)
				var stdout strings.Builder
				cmd.Stdout = &stdout
				code, stderr := signalWhen(t, cmd, "paused at "+tc.point, sig)
				if code != 1 || !strings.Contains(stderr, "interrupted") {
					t.Errorf("exit %d, want 1 saying it was interrupted\n%s", code, stderr)
				}
				if stdout.Len() > 0 {
					t.Errorf("an interrupted %s printed:\n%s", tc.args[0], stdout.String())
				}
				if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
					t.Errorf("an interrupted %s left %s in its temporary folder", tc.args[0], entries[0].Name())
				}
			})
		}
	}
}

// TestSignalBeforePublishing: SIGINT or SIGTERM during the last steps
// before the rename that publishes (at a pause point: the removal guard,
// once it has loaded the latest earlier snapshot and the stage, and the
// prepared stage, just before the rename) ends the build with exit 1,
// saying it was interrupted, and publishes nothing: no OUT/DATE, no stage
// left, the earlier snapshot as it was.
func TestSignalBeforePublishing(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	bin := binary(t)
	const later = "2026-09-28" // the day after snaptest.SeedDate
	for _, point := range []string{crashtest.Guard, crashtest.Publish} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(point+" "+sig.String(), func(t *testing.T) {
				out := t.TempDir()
				earlier, err := snaptest.Build(t, out, snaptest.SmallSource(t))
				if err != nil {
					t.Fatal(err)
				}
				before := snaptest.Tree(t, earlier.Dir)
				src := snaptest.SmallSource(t)
				cmd := exec.Command(bin, "build", "--out", out, "--date", later, "--retrieved", snaptest.SeedFetched,
					"--from-leaderboard", src.Leaderboard, "--from-ember", src.Ember)
				cmd.Env = append(os.Environ(), crashtest.PauseEnv+"="+point)
				code, stderr := signalWhen(t, cmd, "paused at "+point, sig)
				if code != 1 || !strings.Contains(stderr, "interrupted") {
					t.Errorf("exit %d, want 1 saying it was interrupted\n%s", code, stderr)
				}
				entries, _ := os.ReadDir(out)
				for _, e := range entries {
					if n := e.Name(); n != store.LockFile && n != snaptest.SeedDate {
						t.Errorf("an interrupted build left %s in the output folder", n)
					}
				}
				if d := cmp.Diff(before, snaptest.Tree(t, earlier.Dir)); d != "" {
					t.Errorf("the earlier snapshot changed (-before +after):\n%s", d)
				}
			})
		}
	}
}
