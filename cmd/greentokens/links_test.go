package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TestBuildsShareSources: two builds of different dates from the same
// sources into one --out store Ember's CSV once (the later's is the
// earlier's file, a hard link, where the file system has no reflink);
// each verifies; a --replace of the earlier (other content, the same
// sources) leaves the later byte-identical and verifying.
func TestBuildsShareSources(t *testing.T) {
	out := t.TempDir()
	build := func(date, retrieved string, extra ...string) string {
		args := append([]string{"build", "--out", out, "--date", date, "--retrieved", retrieved, "--from-leaderboard", seedLB, "--from-ember", ember}, extra...)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("build %s: exit %d: %s", date, code, stderr)
		}
		return filepath.Join(out, date)
	}
	first, second := build("2026-09-20", "2026-09-19"), build(seedDate, seedReadOn)
	rel, err := store.LoadDir(t.Context(), second)
	if err != nil {
		t.Fatal(err)
	}
	var csv string
	for _, src := range rel.Manifest.Sources {
		if strings.HasPrefix(src.Path, format.SourcesDir+"ember/") {
			csv = filepath.FromSlash(src.Path)
		}
	}
	a, errA := os.Stat(filepath.Join(first, csv))
	b, errB := os.Stat(filepath.Join(second, csv))
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !os.SameFile(a, b) && !fileSystemReflinks(t, out) {
		t.Errorf("%s: the later build stores its own copy of the same bytes", csv)
	}
	for _, dir := range []string{first, second} {
		if code, stdout, stderr := runCLI(t, "verify", dir); code != exitOK {
			t.Errorf("verify %s: exit %d: %s%s", dir, code, stdout, stderr)
		}
	}

	before := snapshotBytes(t, second)
	build("2026-09-20", "2026-09-18", "--replace")
	if after := snapshotBytes(t, second); !maps.Equal(before, after) {
		t.Error("replacing the earlier snapshot changed the later one")
	}
	if code, stdout, stderr := runCLI(t, "verify", second); code != exitOK {
		t.Errorf("verify %s after the replacement: exit %d: %s%s", second, code, stdout, stderr)
	}
}

// snapshotBytes reads every file of the snapshot folder dir.
func snapshotBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := store.ListFiles(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, p := range files {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		m[p] = string(b)
	}
	return m
}

// fileSystemReflinks reports whether the file system of dir clones files
// (FICLONE), where a shared source is a clone rather than a hard link.
func fileSystemReflinks(t *testing.T, dir string) bool {
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
