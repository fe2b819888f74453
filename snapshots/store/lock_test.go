package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/internal/failure"
)

// holdLock takes out's lock as another build would, until the test ends.
func holdLock(t *testing.T, out string) *Lock {
	t.Helper()
	l, err := LockFolder(context.Background(), out, 0, func(string) { t.Error("the lock was not free") })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Release(false) })
	return l
}

// TestLockNamesItsHolder: the lock file holds the holder's PID, and a
// waiter that gives up (a timeout) names it, with exit-code kind
// failure.ErrConflict.
func TestLockNamesItsHolder(t *testing.T) {
	out := t.TempDir()
	holdLock(t, out)
	b, err := os.ReadFile(filepath.Join(out, LockFile))
	if err != nil || string(b) != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("the lock file holds %q (%v); want this process's PID", b, err)
	}
	_, err = LockFolder(context.Background(), out, 100*time.Millisecond, func(string) {})
	if !errors.Is(err, failure.ErrConflict) {
		t.Fatalf("got %v; want failure.ErrConflict", err)
	}
	for _, want := range []string{"another build (PID " + strconv.Itoa(os.Getpid()) + ") still holds the lock of " + out, "100ms (--lock-timeout)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestLockWaitCancelled: a build waiting for the lock ends as soon as its
// context does (a signal), with failure.ErrInterrupted.
func TestLockWaitCancelled(t *testing.T) {
	out := t.TempDir()
	holdLock(t, out)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() {
		_, err := LockFolder(ctx, out, 0, func(holder string) {
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
}

// TestFailedHolderRemovesItsLock: a holder that failed removes the lock
// file it created, not one that was there before it; one that succeeded
// keeps it. A waiter on a lock file that its holder removes takes the lock
// on a new file, never on the removed one.
func TestFailedHolderRemovesItsLock(t *testing.T) {
	for _, tc := range []struct {
		name          string
		there, failed bool
		wantFile      bool
	}{
		{"created and failed", false, true, false},
		{"created and succeeded", false, false, true},
		{"found and failed", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			p := filepath.Join(out, LockFile)
			if tc.there {
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l, err := LockFolder(context.Background(), out, 0, func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			l.Release(tc.failed)
			if _, err := os.Stat(p); (err == nil) != tc.wantFile {
				t.Errorf("the lock file after the release: %v; want it there: %v", err, tc.wantFile)
			}
		})
	}
	t.Run("a waiter gets a new file", func(t *testing.T) {
		out := t.TempDir()
		a, err := LockFolder(context.Background(), out, 0, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		waiting := make(chan struct{})
		got := make(chan *Lock)
		go func() {
			b, err := LockFolder(context.Background(), out, 0, func(string) { close(waiting) })
			if err != nil {
				t.Error(err)
			}
			got <- b
		}()
		<-waiting
		a.Release(true) // a failed build: removes the file it created
		b := <-got
		defer b.Release(false)
		held, _ := b.f.Stat()
		named, err := os.Stat(filepath.Join(out, LockFile))
		if err != nil || !os.SameFile(held, named) {
			t.Errorf("the waiter holds a lock on a file that is not OUT/.lock (%v)", err)
		}
		// And it is a real lock: a third build cannot take it.
		if _, err := tryLock(filepath.Join(out, LockFile)); !errors.Is(err, unix.EWOULDBLOCK) {
			t.Errorf("a third build took the lock: %v", err)
		}
	})
}

// TestLockRefusesNonRegular: OUT/.lock is opened only when it is a
// regular file. A symbolic link there (to a file outside the folder,
// dangling, or to a folder), a folder or a FIFO is refused with
// failure.ErrConflict naming it and what it is, and what a link points at
// is left as it was: the lock never truncates or writes a file it was led
// to.
func TestLockRefusesNonRegular(t *testing.T) {
	const precious = "not the build's to write\n"
	for _, tc := range []struct {
		name string
		make func(t *testing.T, lock, outside string)
		kind string
	}{
		{"a link to a file outside", func(t *testing.T, lock, outside string) {
			symlink(t, filepath.Join(outside, "precious"), lock)
		}, "a symbolic link"},
		{"a dangling link", func(t *testing.T, lock, outside string) {
			symlink(t, filepath.Join(outside, "absent"), lock)
		}, "a symbolic link"},
		{"a link to a folder", func(t *testing.T, lock, outside string) { symlink(t, outside, lock) }, "a symbolic link"},
		{"a folder", func(t *testing.T, lock, _ string) {
			if err := os.Mkdir(lock, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "a folder"},
		{"a FIFO", func(t *testing.T, lock, _ string) {
			if err := unix.Mkfifo(lock, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "a named pipe (FIFO)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, outside := t.TempDir(), t.TempDir()
			target := filepath.Join(outside, "precious")
			if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
				t.Fatal(err)
			}
			before, err := os.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			lock := filepath.Join(out, LockFile)
			tc.make(t, lock, outside)
			l, err := LockFolder(context.Background(), out, 0, func(string) { t.Error("waited for a lock no one holds") })
			if err == nil {
				l.Release(true)
				t.Fatal("the lock was taken")
			}
			want := lock + " is " + tc.kind + ", not a regular file; refusing to open it as the output folder's lock"
			if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v; want failure.ErrConflict saying %q", err, want)
			}
			b, err := os.ReadFile(target)
			after, serr := os.Stat(target)
			if err != nil || serr != nil || string(b) != precious || !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("the file outside the folder was touched: %q, %v", b, err)
			}
			if names, _ := os.ReadDir(outside); len(names) != 1 {
				t.Errorf("the lock made %d entries outside the folder", len(names)-1)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
