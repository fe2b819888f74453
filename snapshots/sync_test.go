package snapshots

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"

	"golang.org/x/sys/unix"
)

// TestSyncErrorFailsTheBuild: an error in syncing the stage, after the
// checks have passed, fails the build (failure.ErrConflict) with nothing
// published.
func TestSyncErrorFailsTheBuild(t *testing.T) {
	t.Cleanup(func() { syncfs = unix.Syncfs })
	syncfs = func(int) error { return syscall.EIO }
	out := t.TempDir()
	if _, err := build(t, out, seedSource()); !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), syscall.EIO.Error()) {
		t.Fatalf("build whose sync fails: %v; want failure.ErrConflict with the sync's error", err)
	}
	assertEmpty(t, out)
}

// TestFailedBuildDoesNotSync: a build that fails its checks removes its
// stage without syncing it.
func TestFailedBuildDoesNotSync(t *testing.T) {
	t.Cleanup(func() { syncfs = unix.Syncfs })
	real := validateSnapshot
	t.Cleanup(func() { validateSnapshot = real })
	synced := false
	syncfs = func(int) error { synced = true; return nil }
	validateSnapshot = func(context.Context, string) error { return errors.New("a check failed") }
	out := t.TempDir()
	if _, err := build(t, out, seedSource()); !errors.Is(err, failure.ErrValidation) {
		t.Errorf("build: %v; want failure.ErrValidation", err)
	}
	if synced {
		t.Error("the failed build synced the stage it removes")
	}
	assertEmpty(t, out)
}

// TestNoWriteAfterSync: once the stage has been synced, a file written
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
	if err := st.sync(); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if _, err := st.write("b.json", []byte("{}")); err == nil || !strings.Contains(err.Error(), "after the stage's sync started") {
		t.Errorf("a write after the sync: %v; want it refused", err)
	}
}
