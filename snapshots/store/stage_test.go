package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/internal/failure"
)

const testDate = "2026-09-27"

// newTestStage is a stage of testDate in out, closed as failed when the
// test ends (a no-op once it is published).
func newTestStage(t *testing.T, out string) *Stage {
	t.Helper()
	st, err := NewStage(context.Background(), out, testDate, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(true) })
	return st
}

// writeFiles writes the files into st, by slash path.
func writeFiles(t *testing.T, st *Stage, files map[string]string) {
	t.Helper()
	for p, data := range files {
		if _, err := st.WriteFile(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// TestPublish: a prepared stage becomes OUT/DATE with its files; the same
// files again are Same and change nothing; other files are a conflict
// unless they replace it, swapped in whole.
func TestPublish(t *testing.T) {
	out := t.TempDir()
	publish := func(files map[string]string, replace bool) (Outcome, string, error) {
		st := newTestStage(t, out)
		writeFiles(t, st, files)
		how, diff, err := st.Prepare(replace)
		if err == nil {
			err = st.Publish()
		}
		st.Close(err != nil)
		return how, diff, err
	}
	first := map[string]string{"manifest.json": "{}", "models/a.json": `{"a": 1}`}
	if how, _, err := publish(first, false); err != nil || how != New {
		t.Fatalf("first publish: %v, %v; want New", how, err)
	}
	target := filepath.Join(out, testDate)
	if diff := cmp.Diff([]string{LockFile, testDate}, entries(t, out)); diff != "" {
		t.Errorf("the output folder (-want +got):\n%s", diff)
	}
	if how, _, err := publish(first, false); err != nil || how != Same {
		t.Errorf("the same files again: %v, %v; want Same", how, err)
	}
	other := map[string]string{"manifest.json": "{}", "models/a.json": `{"a": 2}`}
	if _, _, err := publish(other, false); !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "(models/a.json differs); pass --replace") {
		t.Errorf("other files: %v; want a conflict naming the difference", err)
	}
	if b, _ := os.ReadFile(filepath.Join(target, "models", "a.json")); string(b) != `{"a": 1}` {
		t.Errorf("a refused publish changed the release: %q", b)
	}
	if how, diff, err := publish(other, true); err != nil || how != Replaced || diff != "models/a.json differs" {
		t.Errorf("replace: %v, %q, %v; want Replaced, naming the difference", how, diff, err)
	}
	if b, _ := os.ReadFile(filepath.Join(target, "models", "a.json")); string(b) != `{"a": 2}` {
		t.Errorf("after the replace: %q", b)
	}
	if diff := cmp.Diff([]string{LockFile, testDate}, entries(t, out)); diff != "" {
		t.Errorf("the output folder after a replace (-want +got):\n%s", diff)
	}
}

// TestSyncErrorFailsThePublish: an error in syncing the stage fails it
// (failure.ErrConflict) with nothing published, and a stage closed without
// Prepare is never synced.
func TestSyncErrorFailsThePublish(t *testing.T) {
	out := t.TempDir()
	st := newTestStage(t, out)
	synced := 0
	st.syncfs = func(int) error { synced++; return syscall.EIO }
	writeFiles(t, st, map[string]string{"a.json": "{}"})
	if _, _, err := st.Prepare(false); !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), syscall.EIO.Error()) {
		t.Fatalf("prepare whose sync fails: %v; want failure.ErrConflict with the sync's error", err)
	}
	st.Close(true)
	if diff := cmp.Diff([]string(nil), entries(t, out)); diff != "" {
		t.Errorf("the failed stage left (-want +got):\n%s", diff)
	}

	failed := newTestStage(t, out)
	failed.syncfs = func(int) error { synced++; return nil }
	writeFiles(t, failed, map[string]string{"a.json": "{}"})
	failed.Close(true)
	if synced != 1 {
		t.Errorf("%d syncs; a stage closed unprepared synced", synced)
	}
}

// TestNoWriteAfterSync: once the stage has been synced, a file written
// into it is refused: it would not be on disk when the snapshot appears.
func TestNoWriteAfterSync(t *testing.T) {
	st := newTestStage(t, t.TempDir())
	writeFiles(t, st, map[string]string{"a.json": "{}"})
	if _, _, err := st.Prepare(false); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if _, err := st.WriteFile("b.json", []byte("{}")); err == nil || !strings.Contains(err.Error(), "after the stage's sync started") {
		t.Errorf("a write after the sync: %v; want it refused", err)
	}
}

// TestWriteStream: a file written as a stream is recorded with the size
// and sha256 of its bytes; one whose writer fails is not recorded; a path
// is written once, and only a snapshot's path is written.
func TestWriteStream(t *testing.T) {
	st := newTestStage(t, t.TempDir())
	f, err := st.WriteStream("index.json", func(w io.Writer) error {
		for _, s := range []string{"{", `"a": 1`, "}"} {
			if _, err := io.WriteString(w, s); err != nil {
				return err
			}
		}
		return nil
	})
	want := `{"a": 1}`
	if err != nil || f.Size != int64(len(want)) || f.SHA256 != "f9d86028c6e0d64e225186f96acb69338b2c59764df79162107f5c4bb34d1310" {
		t.Errorf("the streamed file: %+v, %v", f, err)
	}
	if b, _ := fs.ReadFile(st.FS(), "index.json"); string(b) != want {
		t.Errorf("read back: %q", b)
	}
	broken := errors.New("the encoder failed")
	if _, err := st.WriteStream("grid.json", func(w io.Writer) error { return broken }); !errors.Is(err, broken) {
		t.Errorf("a failed stream: %v; want its error", err)
	}
	if _, ok := st.files["grid.json"]; ok {
		t.Error("a failed stream was recorded")
	}
	for _, rel := range []string{"index.json", ".lock", "../x.json", "/abs.json"} {
		if _, err := st.WriteFile(rel, []byte("{}")); !errors.Is(err, failure.ErrConflict) {
			t.Errorf("WriteFile(%q): %v; want it refused", rel, err)
		}
	}
	// A path written again while its stream is open.
	_, err = st.WriteStream("models/x.json", func(w io.Writer) error {
		_, err := st.WriteFile("models/x.json", []byte("{}"))
		return err
	})
	if err == nil {
		t.Error("a path written inside its own stream was accepted")
	}
}

// TestSnapshotModes: a published snapshot is readable by anyone: folders
// 0755 and files 0644, less the umask (os.MkdirTemp would make the staging
// folder, and so the snapshot, 0700).
func TestSnapshotModes(t *testing.T) {
	for _, umask := range []int{0o022, 0o027} {
		t.Run("umask "+strconv.FormatInt(int64(umask), 8), func(t *testing.T) {
			old := unix.Umask(umask)
			defer unix.Umask(old)
			out := t.TempDir()
			st := newTestStage(t, out)
			writeFiles(t, st, map[string]string{"manifest.json": "{}", "models/a.json": "{}", "sources/leaderboard/tasks/t.json": "{}"})
			if _, _, err := st.Prepare(false); err != nil {
				t.Fatal(err)
			}
			if err := st.Publish(); err != nil {
				t.Fatal(err)
			}
			wantDir, wantFile := fs.FileMode(0o755&^umask), fs.FileMode(0o644&^umask)
			n := 0
			err := filepath.WalkDir(st.Target(), func(p string, d fs.DirEntry, err error) error {
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
			if n != 8 {
				t.Errorf("%d entries checked, want 8", n)
			}
		})
	}
}

// TestLeftoversRemoved: a new stage removes the staging folders killed
// builds left, and says so.
func TestLeftoversRemoved(t *testing.T) {
	out := t.TempDir()
	left := filepath.Join(out, stagingPrefix+testDate+"-1")
	if err := os.MkdirAll(filepath.Join(left, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	st, err := NewStage(context.Background(), out, testDate, 0, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(true)
	if _, err := os.Stat(left); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the leftover is still there: %v", err)
	}
	if !strings.Contains(log.String(), "removed the leftover of an interrupted build") {
		t.Errorf("not logged:\n%s", log.String())
	}
}

// TestStageWritesNoLink: a stage makes its files and folders inside its
// folder only: a symbolic link planted in the staging folder, where a
// folder or a file of the snapshot is to be made, is never followed (the
// write fails with failure.ErrConflict, naming the file) and nothing is
// made where it points.
func TestStageWritesNoLink(t *testing.T) {
	for _, tc := range []struct {
		name, link, write string
	}{
		{"a folder", "models", "models/a.json"},
		{"a file", "index.json", "index.json"},
		{"a folder below", "pages", "pages/deep/a.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outside := t.TempDir()
			st := newTestStage(t, t.TempDir())
			target := outside
			if tc.link == tc.write {
				target = filepath.Join(outside, "index.json")
			}
			symlink(t, target, filepath.Join(st.Dir(), tc.link))
			_, err := st.WriteFile(tc.write, []byte("{}"))
			if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), tc.write) {
				t.Errorf("WriteFile(%s) through a link: %v; want failure.ErrConflict naming it", tc.write, err)
			}
			if names := entries(t, outside); len(names) > 0 {
				t.Errorf("the stage wrote %v outside its folder", names)
			}
		})
	}
}
