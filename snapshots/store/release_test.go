package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/boundtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func TestMain(m *testing.M) { snaptest.Main(m) }

func TestLoad(t *testing.T) {
	dir := snaptest.CopySnapshot(t)
	s := snaptest.Load(t, dir)
	if len(s.Models) != 18 || s.Models["qwen-3-32b"].ModelID != "Qwen/Qwen3-32B" {
		t.Errorf("loaded %d models; qwen-3-32b: %+v", len(s.Models), s.Models["qwen-3-32b"])
	}
	if s.Grid == nil || len(s.Grid.Areas) == 0 {
		t.Errorf("grid.json not loaded")
	}
	mb, _ := os.ReadFile(filepath.Join(dir, format.ManifestPath))
	if s.ID.Date != snaptest.SeedDate || s.ID.ManifestSHA256 != sum(mb) || s.Name() != dir {
		t.Errorf("the release is %+v named %q; want the manifest's date and sha256, named %s", s.ID, s.Name(), dir)
	}
	seed, _ := os.ReadFile(sample.Seed("qwen-3-32b.json"))
	if b, err := s.ReadListed("models/qwen-3-32b.json"); err != nil || !bytes.Equal(b, seed) {
		t.Errorf("ReadListed(models/qwen-3-32b.json) is not the file: %v", err)
	}
	if src := s.Source(fetch.LeaderboardIndex); src == nil || src.Path != "sources/leaderboard/index.json" {
		t.Errorf("Source(%s) = %+v", fetch.LeaderboardIndex, src)
	}

	// A manifest with the same content in another form is refused.
	mp := filepath.Join(dir, format.ManifestPath)
	b, _ := os.ReadFile(mp)
	os.WriteFile(mp, append(b, '\n'), 0o644)
	if _, err := store.LoadDir(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "canonical") {
		t.Errorf("Load of a non-canonical manifest: %v", err)
	}
	os.WriteFile(mp, b, 0o644)

	// So is a listed file whose bytes changed, naming it (a
	// *store.FileError: another file there may pass); and once loaded, a
	// file read again (ReadListed, Model) is checked again.
	snaptest.FlipDigit(t, filepath.Join(dir, "models", "qwen-3-14b.json"), `"wh_per_million_output_tokens": [0-9]+\.[0-9]+`)
	_, err := store.LoadDir(context.Background(), dir)
	var fe *store.FileError
	if !errors.As(err, &fe) || fe.File.Path != "models/qwen-3-14b.json" || !errors.Is(err, failure.ErrValidation) || !strings.Contains(err.Error(), "models/qwen-3-14b.json") {
		t.Errorf("Load of a changed model file: %v", err)
	}
	if _, err := s.ReadListed("models/qwen-3-14b.json"); err == nil {
		t.Errorf("ReadListed of a file changed since Load")
	}
	if _, err := s.Model("qwen-3-14b"); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("Model of a file changed since Load: %v", err)
	}
	if m, err := s.Model("qwen-3-32b"); err != nil || m.ModelID != "Qwen/Qwen3-32B" || len(m.Configurations) == 0 {
		t.Errorf("Model(qwen-3-32b): %v", err)
	}
	if _, err := s.ReadListed("notes.txt"); err == nil || !strings.Contains(err.Error(), "not listed") {
		t.Errorf("ReadListed of an unlisted file: %v", err)
	}
}

// TestCheckListed: a release whose load missed a listed file is read again
// once that file is in place, and not before; a fault the manifest fixes
// (a file that does not decode) is never one to wait for.
func TestCheckListed(t *testing.T) {
	ctx := context.Background()
	dir := snaptest.CopySmallSnapshot(t)
	p := filepath.Join(dir, "models", "qwen-3-14b.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	rel, err := store.Open(ctx, regfile.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	loadErr := rel.Load(ctx)
	if loadErr == nil || rel.CheckListed(ctx, loadErr) == nil {
		t.Fatalf("Load with a model file missing: %v; CheckListed passes", loadErr)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rel.CheckListed(ctx, loadErr); err != nil {
		t.Errorf("CheckListed with the file back: %v", err)
	}
	fixed := errors.New("a model file does not decode")
	if err := rel.CheckListed(ctx, fixed); err != fixed {
		t.Errorf("CheckListed of an error naming no file: %v, want it as it is", err)
	}
}

// Load checks that index.json decodes, as it streams in: a value of the
// wrong type anywhere in it fails; a field it does not know is ignored.
func TestLoadIndex(t *testing.T) {
	idx, err := os.ReadFile(filepath.Join(snaptest.SmallSnapshot(t), format.IndexPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new string
		wantErr        string
	}{
		{"a field it does not know", `"models": [`, `"extra": {"a": [1, 2]}, "models": [`, ""},
		{"a number as a string in a list", `"configurations": `, `"configurations": "many", "x": `, "index.json: field models[0]"},
		{"a list as an object", `"load_curves": [`, `"load_curves": {"a": 1}, "x": [`, "index.json: field \"load_curves\""},
		{"a string as a number", `"itl_deadline_ms": `, `"itl_deadline_ms": "x", "y": `, "index.json: field itl_deadline_ms"},
		{"data after it", "", "", "index.json: invalid JSON after the top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append([]byte{}, idx...)
			if tc.old == "" {
				data = append(data, " []"...)
			} else if data = bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1); bytes.Equal(data, idx) {
				t.Fatalf("test setup: no %s in index.json", tc.old)
			}
			var v format.IndexFile
			uerr := json.Unmarshal(data, &v)
			dir := snaptest.CopySmallSnapshot(t)
			snaptest.Relist(t, dir, format.IndexPath, data)
			_, err := store.LoadDir(context.Background(), dir)
			if tc.wantErr == "" {
				if err != nil || uerr != nil {
					t.Fatalf("Load: %v (json.Unmarshal: %v)", err, uerr)
				}
				return
			}
			if uerr == nil {
				t.Fatalf("test setup: json.Unmarshal takes it")
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, failure.ErrValidation) {
				t.Errorf("Load: %v\nwant an ErrValidation saying %q (json.Unmarshal: %v)", err, tc.wantErr, uerr)
			}
		})
	}
}

// TestOpenBoundsManifest: a manifest.json over format.MaxManifestBytes (a
// 145 MB one) is refused before it is decoded, with failure.ErrValidation
// naming the bound: unread when its size says so, and read no further than
// one byte past the bound when its file system's size does not; and a
// string of its generator over format.MaxGeneratorBytes is refused before
// the manifest is decoded, one at the bound taken.
func TestOpenBoundsManifest(t *testing.T) {
	dir := snaptest.CopySmallSnapshot(t)
	head := []byte(`{"version": "1", "date": "2026-09-27", "generator": {"version": "`)
	for _, tc := range []struct {
		name     string
		statSize int64
		maxRead  int64
	}{
		{"its size says so", 0, 0},
		{"its size does not", 1000, format.MaxManifestBytes + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			big := &boundtest.FS{Base: regfile.DirFS(dir), Name: format.ManifestPath, Head: head, Fill: 'a', Size: 145e6, StatSize: tc.statSize}
			_, err := store.Open(context.Background(), big, dir)
			if want := "over the 16 MiB bound (format.MaxManifestBytes)"; !errors.Is(err, failure.ErrValidation) || !strings.Contains(fmt.Sprint(err), want) {
				t.Errorf("Open of a 145 MB manifest: %v; want failure.ErrValidation saying %q", err, want)
			}
			if n := big.Read(); n > tc.maxRead {
				t.Errorf("Open read %d bytes of the 145 MB manifest; at most %d", n, tc.maxRead)
			}
		})
	}

	for _, tc := range []struct {
		n  int
		ok bool
	}{{format.MaxGeneratorBytes, true}, {format.MaxGeneratorBytes + 1, false}} {
		t.Run(fmt.Sprintf("a generator version of %d bytes", tc.n), func(t *testing.T) {
			d := snaptest.CopySmallSnapshot(t)
			snaptest.EditManifest(t, d, func(m *format.Manifest) { m.Generator.Version = strings.Repeat("v", tc.n) })
			_, err := store.LoadDir(context.Background(), d)
			want := fmt.Sprintf("manifest.json: generator.version is %d bytes of JSON, over the 256-byte bound", tc.n)
			switch {
			case tc.ok && err != nil:
				t.Errorf("Load: %v; want the generator at the bound taken", err)
			case !tc.ok && (!errors.Is(err, failure.ErrValidation) || !strings.Contains(fmt.Sprint(err), want)):
				t.Errorf("Load: %v; want failure.ErrValidation saying %q", err, want)
			}
		})
	}
}
