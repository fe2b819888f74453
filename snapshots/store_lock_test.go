package snapshots

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/fetch"
)

// holdLock takes out's lock as another build would, until the test ends.
func holdLock(t *testing.T, out string) *outLock {
	t.Helper()
	l, err := lock(context.Background(), out, 0, func(string) { t.Error("the lock was not free") })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.release(false) })
	return l
}

// TestLockNamesItsHolder: the lock file holds the holder's PID, and a
// build that gives up waiting (LockTimeout) names it, with exit-code kind
// failure.ErrConflict, and writes nothing.
func TestLockNamesItsHolder(t *testing.T) {
	out := t.TempDir()
	holdLock(t, out)
	b, err := os.ReadFile(filepath.Join(out, lockName))
	if err != nil || string(b) != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("the lock file holds %q (%v); want this process's PID", b, err)
	}
	_, err = Build(context.Background(), BuildOptions{Out: out, Date: seedDate, Retrieved: seedFetched,
		Source: seedSource(), LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, failure.ErrConflict) {
		t.Fatalf("got %v; want failure.ErrConflict", err)
	}
	for _, want := range []string{"another build (PID " + strconv.Itoa(os.Getpid()) + ") still holds the lock of " + out, "100ms (--lock-timeout)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	assertEmpty(t, out)
}

// TestLockWaitCancelled: a build waiting for the lock ends as soon as its
// context does (a signal), with failure.ErrInterrupted, and writes nothing.
func TestLockWaitCancelled(t *testing.T) {
	out := t.TempDir()
	holdLock(t, out)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() {
		_, err := lock(ctx, out, 0, func(holder string) {
			if holder != "PID "+strconv.Itoa(os.Getpid()) {
				t.Errorf("holder %q", holder)
			}
			cancel() // the signal comes while the build waits
		})
		done <- err
	}()
	err := <-done
	if !errors.Is(err, failure.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("got %v; want failure.ErrInterrupted", err)
	}
	assertEmpty(t, out)
}

// TestFailedBuildRemovesItsLock: a build that fails removes the lock file
// it created, not one that was there before it; one that succeeds keeps
// it. A build waiting on a lock file that its holder removes takes the
// lock on a new file, never on the removed one.
func TestFailedBuildRemovesItsLock(t *testing.T) {
	t.Run("created and failed", func(t *testing.T) {
		out := t.TempDir()
		_, err := build(t, out, fetchDirWithout(t))
		if err == nil {
			t.Fatal("the build did not fail")
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("a failed build left %d entries (%s ...)", len(entries), entries[0].Name())
		}
	})
	t.Run("found and failed", func(t *testing.T) {
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, lockName), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := build(t, out, fetchDirWithout(t)); err == nil {
			t.Fatal("the build did not fail")
		}
		if _, err := os.Stat(filepath.Join(out, lockName)); err != nil {
			t.Errorf("a failed build removed a lock file it found: %v", err)
		}
	})
	t.Run("a waiter gets a new file", func(t *testing.T) {
		out := t.TempDir()
		a, err := lock(context.Background(), out, 0, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		waiting := make(chan struct{})
		got := make(chan *outLock)
		go func() {
			b, err := lock(context.Background(), out, 0, func(string) { close(waiting) })
			if err != nil {
				t.Error(err)
			}
			got <- b
		}()
		<-waiting
		a.release(true) // a failed build: removes the file it created
		b := <-got
		defer b.release(false)
		held, _ := b.f.Stat()
		named, err := os.Stat(filepath.Join(out, lockName))
		if err != nil || !os.SameFile(held, named) {
			t.Errorf("the waiter holds a lock on a file that is not OUT/.lock (%v)", err)
		}
		// And it is a real lock: a third build cannot take it.
		if _, err := tryLock(filepath.Join(out, lockName)); !errors.Is(err, unix.EWOULDBLOCK) {
			t.Errorf("a third build took the lock: %v", err)
		}
	})
}

// fetchDirWithout is a source missing every file: a build from it fails
// at its first fetch.
func fetchDirWithout(t *testing.T) fetch.Dir {
	return fetch.Dir{Root: t.TempDir(), Origins: fetch.DefaultOrigins()}
}

// TestSnapshotModes: a published snapshot is readable by anyone: folders
// 0755 and files 0644, less the umask (os.MkdirTemp would make the
// staging folder, and so the snapshot, 0700).
func TestSnapshotModes(t *testing.T) {
	for _, umask := range []int{0o022, 0o027} {
		t.Run("umask "+strconv.FormatInt(int64(umask), 8), func(t *testing.T) {
			old := unix.Umask(umask)
			defer unix.Umask(old)
			out := t.TempDir()
			res, err := Build(context.Background(), BuildOptions{Out: out, Date: seedDate, Retrieved: seedFetched,
				Source: seedSource(), NoGrid: true})
			if err != nil {
				t.Fatal(err)
			}
			wantDir, wantFile := fs.FileMode(0o755&^umask), fs.FileMode(0o644&^umask)
			n := 0
			err = filepath.WalkDir(res.Dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				fi, err := d.Info()
				if err != nil {
					return err
				}
				want := wantFile
				if d.IsDir() {
					want = wantDir
				}
				if got := fi.Mode().Perm(); got != want {
					t.Errorf("%s: mode %v, want %v", p, got, want)
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n < 10 {
				t.Errorf("only %d entries checked", n)
			}
		})
	}
}
