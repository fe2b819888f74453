package store

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// publishFiles publishes a snapshot of date holding files into out.
func publishFiles(t *testing.T, out, date string, files map[string]string) {
	t.Helper()
	st, err := NewStage(context.Background(), out, date, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(false)
	writeFiles(t, st, files)
	if _, _, err := st.Prepare(false); err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
}

func sameInode(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Lstat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Lstat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(fa, fb)
}

// TestShareSources: an archived source whose bytes an earlier snapshot of
// the folder holds is that file (a hard link here, or a reflink where the
// file system has one), read through the regular-file guard like any
// other; an output, a source with other bytes of the same size, and a
// symbolic link where the earlier source should be are not shared.
func TestShareSources(t *testing.T) {
	out := t.TempDir()
	src := "sources/ember/ember.csv"
	publishFiles(t, out, "2026-09-20", map[string]string{src: "Area,Value\nWorld,474\n", "sources/a.json": "[1]", "index.json": "{}"})
	publishFiles(t, out, "2026-09-27", map[string]string{src: "Area,Value\nWorld,474\n", "sources/a.json": "[2]", "index.json": "{}"})

	older, newer := filepath.Join(out, "2026-09-20"), filepath.Join(out, "2026-09-27")
	csvShared := sameInode(t, filepath.Join(older, src), filepath.Join(newer, src))
	if !csvShared && !reflinks(t, out) {
		t.Errorf("%s: the same bytes as the earlier snapshot's, neither hard-linked nor reflinked", src)
	}
	for _, p := range []string{"sources/a.json", "index.json"} {
		if sameInode(t, filepath.Join(older, p), filepath.Join(newer, p)) {
			t.Errorf("%s is linked: other bytes, or not a source", p)
		}
	}
	if data, err := regfile.ReadFile(filepath.Join(newer, src)); err != nil || string(data) != "Area,Value\nWorld,474\n" {
		t.Errorf("the shared source through the regular-file guard: %q, %v", data, err)
	}
	if names := entries(t, filepath.Join(newer, "sources", "ember")); len(names) != 1 {
		t.Errorf("the stage left %v beside the shared source", names)
	}

	// A symbolic link where an earlier snapshot's source should be, to a
	// file of the same bytes outside the folder, is neither followed nor
	// linked to.
	out = t.TempDir()
	outside := filepath.Join(t.TempDir(), "ember.csv")
	if err := os.WriteFile(outside, []byte("Area,Value\nWorld,474\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(out, "2026-10-04", filepath.FromSlash(src))
	if err := os.MkdirAll(filepath.Dir(linked), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, linked); err != nil {
		t.Fatal(err)
	}
	publishFiles(t, out, "2026-10-11", map[string]string{src: "Area,Value\nWorld,474\n"})
	if sameInode(t, outside, filepath.Join(out, "2026-10-11", src)) {
		t.Error("the source was linked to the file a symbolic link names")
	}
	if fi, err := os.Lstat(linked); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link: %v, %v", fi, err)
	}
}

// reflinks reports whether the file system of dir clones files (FICLONE).
func reflinks(t *testing.T, dir string) bool {
	t.Helper()
	a, err := os.CreateTemp(dir, ".a")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(a.Name())
	defer a.Close()
	b, err := os.CreateTemp(dir, ".b")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(b.Name())
	defer b.Close()
	return unix.IoctlFileClone(int(b.Fd()), int(a.Fd())) == nil
}
