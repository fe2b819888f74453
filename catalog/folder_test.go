package catalog

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// rescan rescans c and fails the test on an error.
func rescan(t *testing.T, c *Catalog) []string {
	t.Helper()
	added, err := c.Rescan()
	if err != nil {
		t.Fatal(err)
	}
	return added
}

// TestReplacedSnapshot: a served date is immutable. Replaced in place
// (build --replace), its folder is logged once and the copy verified at load
// is still served, with the same manifest; a restart serves the new one.
func TestReplacedSnapshot(t *testing.T) {
	out := t.TempDir()
	catalogtest.BuildSmall(t, out, catalogtest.Date, catalogtest.SevenGrids())
	c, logs := open(t, out)
	before, _ := c.Snapshot(catalogtest.Date)
	logs.Reset()
	if added := rescan(t, c); len(added) != 0 || logs.Len() != 0 {
		t.Errorf("rescan of an unchanged folder: added %v; logs %s", added, logs)
	}

	// Replaced by a build without grid.json: a different manifest.
	res, err := build.Build(context.Background(), build.Options{
		Out: out, Date: catalogtest.Date, Retrieved: catalogtest.Retrieved, NoGrid: true, Replace: true,
		Source: fetch.Dir{Leaderboard: sample.SmallLeaderboard(t), Origins: fetch.DefaultOrigins()},
	})
	if err != nil || !res.Replaced {
		t.Fatalf("build --replace: %+v, %v", res, err)
	}
	if added := rescan(t, c); len(added) != 0 {
		t.Errorf("rescan after the replacement added %v", added)
	}
	s, err := c.Snapshot(catalogtest.Date)
	if err != nil || s != before || s.GridYear != catalogtest.GridYear {
		t.Fatalf("after the replacement: %v; want the copy loaded first", err)
	}
	if _, ok := s.File(format.GridPath); !ok {
		t.Error("the served copy lost its grid.json")
	}
	if l := logs.String(); strings.Count(l, "snapshot folder changed on disk") != 1 || !strings.Contains(l, "restart") {
		t.Errorf("the replacement is not logged once, with what to do:\n%s", l)
	}
	logs.Reset()
	if rescan(t, c); logs.Len() != 0 {
		t.Errorf("the same change logged again:\n%s", logs)
	}
	// A restart serves the new folder.
	c2, _ := open(t, out)
	if s, err := c2.Snapshot(catalogtest.Date); err != nil || s.Grid != nil {
		t.Errorf("after a restart: %v; want the snapshot without grid.json", err)
	}
}

// TestFolderTurnedSymlink: a served dated folder swapped for a symbolic link
// to another date's folder is refused and logged; the verified copy stays.
func TestFolderTurnedSymlink(t *testing.T) {
	out := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	other := catalogtest.BuildSmall(t, t.TempDir(), "2026-10-04", catalogtest.SevenGrids())
	c, logs := open(t, out)
	before, _ := c.Snapshot(catalogtest.Date)
	dir := filepath.Join(out, catalogtest.Date)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, dir); err != nil {
		t.Fatal(err)
	}
	rescan(t, c)
	if s, err := c.Snapshot(catalogtest.Date); err != nil || s != before {
		t.Errorf("after the swap: %v; want the verified copy", err)
	}
	if l := logs.String(); !strings.Contains(l, "changed on disk") || !strings.Contains(l, "symbolic link") {
		t.Errorf("the swap is not logged:\n%s", l)
	}
}

// TestDeletedSnapshot: a deleted folder stops being served; the date comes
// back with the same bytes, and is refused with other bytes until restart.
func TestDeletedSnapshot(t *testing.T) {
	out := t.TempDir()
	src := filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date)
	dir := catalogtest.Copy(t, src, out)
	c, logs := open(t, out)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	rescan(t, c)
	if c.Ready() {
		t.Errorf("serving %v after the folder was deleted", c.Dates())
	}
	if !strings.Contains(logs.String(), "deleted") {
		t.Errorf("the deletion is not logged:\n%s", logs)
	}
	catalogtest.Copy(t, src, out)
	if added := rescan(t, c); !cmp.Equal(added, []string{catalogtest.Date}) {
		t.Errorf("the same folder back: added %v", added)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	rescan(t, c)
	catalogtest.BuildSmall(t, out, catalogtest.Date, "")
	logs.Reset()
	if added := rescan(t, c); len(added) != 0 || c.Ready() {
		t.Errorf("other bytes under a date served before: added %v", added)
	}
	if !strings.Contains(logs.String(), "served with other bytes") {
		t.Errorf("the refusal is not logged:\n%s", logs)
	}
}

// TestIrregularFiles: a named pipe as a dated folder's manifest.json, a
// symbolic link inside a folder and a symbolic link as a dated folder are
// each refused and logged without blocking the scan; the other folders are
// served, and a valid folder added later too. The snapshots folder itself
// may be a symbolic link.
func TestIrregularFiles(t *testing.T) {
	real := t.TempDir()
	root := filepath.Join(t.TempDir(), "snapshots")
	if err := os.Symlink(real, root); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date)
	catalogtest.Copy(t, src, real)
	fifo := filepath.Join(real, "2026-09-14")
	os.MkdirAll(fifo, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifo, "manifest.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := buildInto(t, real, "2026-09-20")
	if err := os.Remove(filepath.Join(linked, "grid.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(linked, "grid.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(real, catalogtest.Date), filepath.Join(real, "2026-09-21")); err != nil {
		t.Fatal(err)
	}
	c, logs := open(t, root) // returns: a FIFO is never opened for reading
	if !cmp.Equal(c.Dates(), []string{catalogtest.Date}) {
		t.Errorf("served %v", c.Dates())
	}
	for _, want := range []string{"date=2026-09-14", "named pipe", "date=2026-09-20", "grid.json is a symbolic link", "date=2026-09-21", "the dated folder is a symbolic link"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logs)
		}
	}
	// A FIFO added while serving does not stop the scan.
	if err := syscall.Mkfifo(filepath.Join(real, "2026-09-15"), 0o644); err != nil {
		t.Fatal(err)
	}
	buildInto(t, real, "2026-10-04")
	if added := rescan(t, c); !cmp.Equal(added, []string{"2026-10-04"}) {
		t.Errorf("added %v, want the valid folder", added)
	}
	if !strings.Contains(logs.String(), "date=2026-09-15") {
		t.Errorf("the FIFO dated entry is not logged:\n%s", logs)
	}
}

// buildInto builds the snapshot of date elsewhere and moves it into out (a
// build refuses to follow a folder it cannot read).
func buildInto(t *testing.T, out, date string) string {
	t.Helper()
	dir := filepath.Join(out, date)
	if err := os.Rename(catalogtest.BuildSmall(t, t.TempDir(), date, catalogtest.SevenGrids()), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCopiedInAnyOrder: a folder copied one file at a time, in alphabetical
// order (manifest.json before models/, as rsync does) or the reverse, with a
// scan after each file, is served once its last file is in place.
func TestCopiedInAnyOrder(t *testing.T) {
	src := filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date)
	var files []string
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(src, p)
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	for _, order := range []string{"alphabetical", "reverse"} {
		t.Run(order, func(t *testing.T) {
			if order == "reverse" {
				sort.Sort(sort.Reverse(sort.StringSlice(files)))
			}
			out := t.TempDir()
			c, _ := open(t, out)
			for i, f := range files {
				b, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				dst := filepath.Join(out, catalogtest.Date, f)
				os.MkdirAll(filepath.Dir(dst), 0o755)
				if err := os.WriteFile(dst, b, 0o644); err != nil {
					t.Fatal(err)
				}
				added := rescan(t, c)
				if last := i == len(files)-1; last != (len(added) == 1) {
					t.Fatalf("after %d of %d files: added %v", i+1, len(files), added)
				}
			}
		})
	}
}

// TestServedFromMemory: once loaded, a snapshot's files are answered from
// memory: a file overwritten on disk changes nothing served.
func TestServedFromMemory(t *testing.T) {
	out := t.TempDir()
	dir := catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	c, _ := open(t, out)
	s, _ := c.Snapshot(Latest)
	want := append([]byte(nil), s.files[format.ManifestPath].Bytes...)
	if err := os.WriteFile(filepath.Join(dir, format.ManifestPath), []byte("root:x:0:0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := s.File(format.ManifestPath)
	if !bytes.Equal(f.Bytes, want) {
		t.Error("manifest.json changed in memory")
	}
	if _, ok := s.File("sources/leaderboard/tasks/lm-arena-chat.json"); !ok {
		t.Error("the archived task file is not held")
	}
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "sources/") && !strings.HasSuffix(p, ".json") {
			t.Errorf("%s is held in memory; of the sources, only the JSON files are", p)
		}
	}
}

// TestNothingToServe: opened on a folder with nothing to serve (empty, or
// only a dated folder that fails its checks, beside other files), the
// catalog logs one warning naming the folder; a later rescan that finds
// nothing new logs none, and a folder with a snapshot none at all.
func TestNothingToServe(t *testing.T) {
	empty := t.TempDir()
	refused := t.TempDir()
	if err := os.Mkdir(filepath.Join(refused, catalogtest.Date), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(refused, "README"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, dated := range map[string]string{empty: "dated_folders=0", refused: "dated_folders=1"} {
		c, logs := open(t, dir)
		var warnings []string
		for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			if strings.Contains(l, "level=WARN") {
				warnings = append(warnings, l)
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "nothing to serve") || !strings.Contains(warnings[0], "dir="+dir) ||
			!strings.Contains(warnings[0], dated) || c.Ready() {
			t.Errorf("%s: ready %v, warnings %q; want one naming the folder, nothing to serve, %s", dir, c.Ready(), warnings, dated)
		}
		logs.Reset()
		rescan(t, c)
		if strings.Contains(logs.String(), "nothing to serve") {
			t.Errorf("%s: a rescan warns again: %s", dir, logs)
		}
		if _, err := c.Snapshot(Latest); err == nil {
			t.Errorf("%s: latest is served", dir)
		}
	}
	if _, logs := open(t, catalogtest.SharedSmall(t)); strings.Contains(logs.String(), "nothing to serve") {
		t.Errorf("a folder with a snapshot: %s", logs)
	}
}
