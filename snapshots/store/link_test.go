package store

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sharedblocks"
)

// publishFiles publishes a snapshot of date holding files into out.
func publishFiles(t *testing.T, out, date string, files map[string]string) {
	t.Helper()
	publishOver(t, out, date, files, false)
}

// publishOver publishes a snapshot of date holding files into out,
// replacing one of other content when replace is set.
func publishOver(t *testing.T, out, date string, files map[string]string, replace bool) {
	t.Helper()
	st, err := NewStage(context.Background(), out, date, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(false)
	writeFiles(t, st, files)
	if _, _, err := st.Prepare(replace); err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
}

// sharing is how the files at a and b store their bytes.
func sharing(t *testing.T, a, b string) sharedblocks.Kind {
	t.Helper()
	k, err := sharedblocks.Of(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// wantSharing is how a source shared with an earlier snapshot in out is
// stored: a reflink where the file system clones files, else a hard link.
func wantSharing(t *testing.T, out string) sharedblocks.Kind {
	t.Helper()
	can, err := sharedblocks.CanReflink(out)
	if err != nil {
		t.Fatal(err)
	}
	if can {
		return sharedblocks.Reflink
	}
	return sharedblocks.HardLink
}

// TestShareSources: an archived source whose bytes an earlier snapshot of
// the folder holds is stored once (a reflink where the file system clones
// files, else a hard link), read through the regular-file guard like any
// other; an output, a source with other bytes of the same size, and a
// symbolic link where the earlier source should be are not shared.
func TestShareSources(t *testing.T) {
	out := t.TempDir()
	src := "sources/ember/ember.csv"
	publishFiles(t, out, "2026-09-20", map[string]string{src: "Area,Value\nWorld,474\n", "sources/a.json": "[1]", "index.json": "{}"})
	publishFiles(t, out, "2026-09-27", map[string]string{src: "Area,Value\nWorld,474\n", "sources/a.json": "[2]", "index.json": "{}"})

	older, newer := filepath.Join(out, "2026-09-20"), filepath.Join(out, "2026-09-27")
	if got, want := sharing(t, filepath.Join(older, src), filepath.Join(newer, src)), wantSharing(t, out); got != want {
		t.Errorf("%s, the same bytes as the earlier snapshot's: %v; want %v", src, got, want)
	}
	for _, p := range []string{"sources/a.json", "index.json"} {
		if got := sharing(t, filepath.Join(older, p), filepath.Join(newer, p)); got != sharedblocks.Apart {
			t.Errorf("%s is %v: other bytes, or not a source", p, got)
		}
	}
	if data, err := regfile.ReadFile(filepath.Join(newer, src)); err != nil || string(data) != "Area,Value\nWorld,474\n" {
		t.Errorf("the shared source through the regular-file guard: %q, %v", data, err)
	}
	if names := entries(t, filepath.Join(newer, "sources", "ember")); len(names) != 1 {
		t.Errorf("the stage left %v beside the shared source", names)
	}

	// Replacing either snapshot, its shared source with other bytes,
	// never writes through the link: the other keeps its bytes.
	publishOver(t, out, "2026-09-27", map[string]string{src: "Area,Value\nWorld,475\n", "index.json": "{}"}, true)
	publishOver(t, out, "2026-09-20", map[string]string{src: "Area,Value\nWorld,476\n", "index.json": "{}"}, true)
	for dir, want := range map[string]string{newer: "Area,Value\nWorld,475\n", older: "Area,Value\nWorld,476\n"} {
		if data, err := regfile.ReadFile(filepath.Join(dir, src)); err != nil || string(data) != want {
			t.Errorf("%s after the replacements: %q, %v; want %q", filepath.Base(dir), data, err, want)
		}
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
	if got := sharing(t, outside, filepath.Join(out, "2026-10-11", src)); got != sharedblocks.Apart {
		t.Errorf("the source is %v of the file a symbolic link names", got)
	}
	if fi, err := os.Lstat(linked); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link: %v, %v", fi, err)
	}
}
