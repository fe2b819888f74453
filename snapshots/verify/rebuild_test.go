package verify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
)

// pinnedBuild builds the small version with the reference year pinned and
// Ember's release named, as the release job does, recording the running
// code as the generator.
func pinnedBuild(t *testing.T) string {
	t.Helper()
	res, err := build.Build(context.Background(), build.Options{
		Out: t.TempDir(), Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched, Source: snaptest.SmallSource(t),
		GridYear: 2024, EmberRelease: "September 2026",
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Dir
}

func rebuild(dir, out string) (*RebuildResult, error) {
	return Rebuild(context.Background(), regfile.DirFS(dir), RebuildOptions{Out: out})
}

// TestRebuildIsByteIdentical: a rebuild takes every input from the
// snapshot (the retrieval date, the pinned reference year, Ember's
// release) and gives its files byte for byte, manifest included.
func TestRebuildIsByteIdentical(t *testing.T) {
	dir := pinnedBuild(t)
	out := t.TempDir()
	res, err := rebuild(dir, out)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Identical || res.Difference != "" || res.Dir != filepath.Join(out, snaptest.SeedDate) {
		t.Errorf("rebuild: %+v; want an identical snapshot in %s", res, filepath.Join(out, snaptest.SeedDate))
	}
	if diff := cmp.Diff(snaptest.Tree(t, dir), snaptest.Tree(t, res.Dir)); diff != "" {
		t.Errorf("the rebuilt files differ:\n%s", diff)
	}
	if res.Manifest.Grid == nil || res.Manifest.Grid.Year != 2024 || !res.Manifest.Grid.YearPinned {
		t.Errorf("the rebuild's grid summary is %+v; want 2024, pinned", res.Manifest.Grid)
	}

	// Again into the same folder: the identical snapshot is left as it is.
	again, err := rebuild(dir, out)
	if err != nil || !again.Unchanged || !again.Identical {
		t.Errorf("a second rebuild: %+v, %v; want it unchanged and identical", again, err)
	}
}

// TestRebuildJulyLayout: a snapshot built from Ember's July 2026 layout
// (archived under its own name, its layout and header in the manifest)
// rebuilds byte for byte too.
func TestRebuildJulyLayout(t *testing.T) {
	res, err := build.Build(context.Background(), build.Options{
		Out: t.TempDir(), Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched, GridYear: 2024, EmberRelease: "July 2026",
		Source: fetch.Dir{Leaderboard: snaptest.SmallLeaderboard(t), Ember: "../../transform/grid/testdata/renames-july.csv", Origins: fetch.DefaultOrigins()},
	})
	if err != nil {
		t.Fatal(err)
	}
	again, err := rebuild(res.Dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !again.Identical {
		t.Errorf("the rebuild differs: %s", again.Difference)
	}
	if diff := cmp.Diff(snaptest.Tree(t, res.Dir), snaptest.Tree(t, again.Dir)); diff != "" {
		t.Errorf("the rebuilt files differ:\n%s", diff)
	}
}

// TestRebuildByOtherCode: the rebuilt manifest names the code that
// rebuilt it when that is not the code that built the snapshot; when that
// generator is the only difference the rebuild says so, as verify, which
// finds the snapshot byte-identical, does.
func TestRebuildByOtherCode(t *testing.T) {
	dir := snaptest.CopySmallSnapshot(t) // built by snaptest.Generator
	res, err := rebuild(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if res.Identical || !res.OnlyGenerator || res.Difference != "" {
		t.Errorf("rebuild by other code: identical %v, generator only %v, difference %q; want the generator alone to differ",
			res.Identical, res.OnlyGenerator, res.Difference)
	}
	if res.Manifest.Generator != res.RebuiltBy || res.BuiltBy != snaptest.Generator {
		t.Errorf("generators: manifest %v, built by %v, rebuilt by %v", res.Manifest.Generator, res.BuiltBy, res.RebuiltBy)
	}
	if rep := verify(t, dir); !rep.OK {
		t.Errorf("verify of the snapshot the rebuild matches: %v", rep.Err())
	}
}

// TestRebuildByOtherCodeOfOtherData: a difference besides the generator,
// in a data file or in the rest of manifest.json, is one, whichever code
// rebuilds; verify finds it too.
func TestRebuildByOtherCodeOfOtherData(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		want   string
	}{
		{"a model's figure", func(t *testing.T, dir string) {
			snaptest.RewriteModel(t, dir, "qwen-3-32b", func(m *format.Model) {
				c := m.Configurations[0]
				c.WhPerMillion += 1
				m.Configurations[0] = c
			})
		}, "models/qwen-3-32b.json differs"},
		{"the manifest's selection", func(t *testing.T, dir string) {
			snaptest.EditManifest(t, dir, func(m *format.Manifest) { m.Selection.ITLDeadlineMS++ })
		}, format.ManifestPath + " differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := snaptest.CopySmallSnapshot(t) // built by snaptest.Generator
			tc.change(t, dir)
			res, err := rebuild(dir, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if res.Identical || res.OnlyGenerator || res.Difference != tc.want {
				t.Errorf("identical %v, generator only %v, difference %q; want %q", res.Identical, res.OnlyGenerator, res.Difference, tc.want)
			}
			if rep := verify(t, dir); rep.OK {
				t.Error("verify finds no difference")
			}
		})
	}
}

// TestRebuildRefusesWhatTheManifestDoesNotVouchFor: no manifest, one not
// in its canonical form, one whose listed sha256 of a source is not the
// file's, a source changed under its manifest, or the snapshot's own
// folder as the output: the rebuild fails before writing anything.
func TestRebuildRefusesWhatTheManifestDoesNotVouchFor(t *testing.T) {
	chat := "sources/leaderboard/tasks/lm-arena-chat.json"
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		kind   error
		says   string
	}{
		{"no manifest", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, format.ManifestPath))
		}, failure.ErrValidation, "no such file"},
		{"manifest not canonical", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, format.ManifestPath), func(b []byte) []byte { return append(b, '\n') })
		}, failure.ErrValidation, "canonical"},
		{"manifest's sha256 of a source", func(t *testing.T, dir string) {
			snaptest.EditManifest(t, dir, func(m *format.Manifest) {
				for i := range m.Sources {
					if m.Sources[i].Path == chat {
						m.Sources[i].SHA256 = strings.Repeat("0", 64)
					}
				}
			})
		}, failure.ErrValidation, chat},
		{"source bytes", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, filepath.FromSlash(chat)), func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"median_itl_ms": 7`, `"median_itl_ms": 8`, 1))
			})
		}, failure.ErrValidation, chat},
		{"grid.json, which names the release", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, format.GridPath), func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"release": "`, `"release": "x`, 1))
			})
		}, failure.ErrValidation, format.GridPath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := snaptest.CopySmallSnapshot(t)
			tc.damage(t, dir)
			out := t.TempDir()
			_, err := rebuild(dir, out)
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("rebuild: %v; want %v saying %q", err, tc.kind, tc.says)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("a refused rebuild wrote into its output folder")
			}
		})
	}
	t.Run("into itself", func(t *testing.T) {
		dir := snaptest.CopySmallSnapshot(t)
		if _, err := rebuild(dir, filepath.Dir(dir)); !errors.Is(err, failure.ErrUsage) {
			t.Errorf("a rebuild into the snapshot's own folder: %v; want failure.ErrUsage", err)
		}
	})
}

// edit rewrites the file at p with fn, which must change it.
func edit(t *testing.T, p string, fn func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	nb := fn(b)
	if bytes.Equal(nb, b) {
		t.Fatalf("%s: the edit changed nothing", p)
	}
	if err := os.WriteFile(p, nb, 0o644); err != nil {
		t.Fatal(err)
	}
}
