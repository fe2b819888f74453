package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sharedblocks"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TestBuildsShareSources: two builds of different dates from the same
// sources into one --out store Ember's CSV once (a reflink where the file
// system clones files, else a hard link); each verifies; a --replace of the earlier (other content, the same
// sources) leaves the later byte-identical and verifying.
func TestBuildsShareSources(t *testing.T) {
	endToEnd(t)
	out := t.TempDir()
	build := func(date, retrieved string, extra ...string) string {
		args := append([]string{"build", "--out", out, "--date", date, "--retrieved", retrieved, "--from-leaderboard", smallLB(t), "--from-ember", ember}, extra...)
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
	got, err := sharedblocks.Of(filepath.Join(first, csv), filepath.Join(second, csv))
	if err != nil {
		t.Fatal(err)
	}
	want := sharedblocks.HardLink
	if can, err := sharedblocks.CanReflink(out); err != nil {
		t.Fatal(err)
	} else if can {
		want = sharedblocks.Reflink
	}
	if got != want {
		t.Errorf("%s, the same bytes in both: %v; want %v", csv, got, want)
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
