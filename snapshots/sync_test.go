package snapshots

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSyncBesideChecksFailsTheBuild: the stage's sync runs beside the
// checks, and its error, which comes only once the checks are done, still
// fails the build (ErrConflict) with nothing published: publishing waits
// for the sync.
func TestSyncBesideChecksFailsTheBuild(t *testing.T) {
	t.Cleanup(func() { syncfs = unix.Syncfs })
	real := validateSnapshot
	t.Cleanup(func() { validateSnapshot = real })
	validated := make(chan struct{})
	validateSnapshot = func(ctx context.Context, dir string) error {
		defer close(validated)
		return real(ctx, dir)
	}
	syncfs = func(int) error {
		<-validated
		return syscall.EIO
	}
	out := t.TempDir()
	if _, err := build(t, out, seedSource()); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), syscall.EIO.Error()) {
		t.Fatalf("build whose sync fails: %v; want ErrConflict with the sync's error", err)
	}
	assertEmpty(t, out)
}

// TestFailedBuildDoesNotWaitForSync: a build that fails its checks returns
// and removes its stage while the sync of that stage is still under way.
func TestFailedBuildDoesNotWaitForSync(t *testing.T) {
	t.Cleanup(func() { syncfs = unix.Syncfs })
	real := validateSnapshot
	t.Cleanup(func() { validateSnapshot = real })
	release := make(chan struct{})
	defer close(release)
	syncfs = func(int) error { <-release; return nil }
	validateSnapshot = func(context.Context, string) error { return errors.New("a check failed") }
	out := t.TempDir()
	done := make(chan error, 1)
	go func() { _, err := build(t, out, seedSource()); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrValidation) {
			t.Errorf("build: %v; want ErrValidation", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("the failed build waited for the sync of the stage it removes")
	}
	assertEmpty(t, out)
}

// TestNoWriteAfterSync: once the stage's sync has started, a file written
// into it is refused: it would not be on disk when the snapshot appears.
func TestNoWriteAfterSync(t *testing.T) {
	st, err := newStage(t.TempDir(), seedDate)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	if _, err := st.write("a.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	st.startSync()
	if _, err := st.write("b.json", []byte("{}")); err == nil || !strings.Contains(err.Error(), "after the stage's sync started") {
		t.Errorf("a write after the sync started: %v; want it refused", err)
	}
	if err := st.sync(); err != nil {
		t.Errorf("sync: %v", err)
	}
}
