package build_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TestLockTimeout: a build that gives up waiting for the output folder's
// lock (LockTimeout) names its holder, with exit-code kind
// failure.ErrConflict, and writes nothing.
func TestLockTimeout(t *testing.T) {
	out := t.TempDir()
	held, err := store.LockFolder(context.Background(), out, 0, func(string) { t.Error("the lock was not free") })
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release(false)
	_, err = build.Build(context.Background(), build.Options{Out: out, Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched,
		Source: snaptest.SmallSource(t), LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, failure.ErrConflict) {
		t.Fatalf("got %v; want failure.ErrConflict", err)
	}
	for _, want := range []string{"another build (PID " + strconv.Itoa(os.Getpid()) + ") still holds the lock of " + out, "100ms (--lock-timeout)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	snaptest.AssertEmpty(t, out)
}

// TestFailedBuildRemovesItsLock: a build that fails removes the lock file
// it created, not one that was there before it.
func TestFailedBuildRemovesItsLock(t *testing.T) {
	without := fetch.Dir{Root: t.TempDir(), Origins: fetch.DefaultOrigins()} // no file: the first fetch fails
	t.Run("created and failed", func(t *testing.T) {
		out := t.TempDir()
		if _, err := snaptest.Build(t, out, without); err == nil {
			t.Fatal("the build did not fail")
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("a failed build left %d entries (%s ...)", len(entries), entries[0].Name())
		}
	})
	t.Run("found and failed", func(t *testing.T) {
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, store.LockFile), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := snaptest.Build(t, out, without); err == nil {
			t.Fatal("the build did not fail")
		}
		if _, err := os.Stat(filepath.Join(out, store.LockFile)); err != nil {
			t.Errorf("a failed build removed a lock file it found: %v", err)
		}
	})
}
