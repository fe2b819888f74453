package validate

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/boundtest"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// TestBoundsMirrored: the checker's bounds on its inputs are the
// builder's and the readers', each declared on both sides.
func TestBoundsMirrored(t *testing.T) {
	for _, b := range []struct {
		name            string
		checker, reader int
	}{
		{"manifest.json's size", manifestMaxBytes, format.MaxManifestBytes},
		{"a generator string", manifestMaxGenerator, format.MaxGeneratorBytes},
	} {
		if b.checker != b.reader {
			t.Errorf("%s: the checker's bound is %d, the readers' %d", b.name, b.checker, b.reader)
		}
	}
}

// TestManifestBounds: a manifest.json over its bound (a 145 MB one) is
// one problem, found before anything is decoded and no other check run:
// unread when its size says so, read no further than one byte past the
// bound when its file system's size does not. A generator string over its
// bound is a problem naming the field, found before the manifest is
// decoded; one at the bound is none.
func TestManifestBounds(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	head := []byte(`{"version": "1", "generator": {"version": "`)
	for _, tc := range []struct {
		name     string
		statSize int64
		maxRead  int64
	}{
		{"its size says so", 0, 0},
		{"its size does not", 1000, manifestMaxBytes + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			big := &boundtest.FS{Base: regfile.DirFS(dir), Name: ManifestPath, Head: head, Fill: 'a', Size: 145e6, StatSize: tc.statSize}
			err := Check(t.Context(), big)
			var r *Report
			if !errors.As(err, &r) {
				t.Fatalf("Check = %v; want a *Report", err)
			}
			want := []Problem{{File: ManifestPath, Msg: "is over the 16 MiB bound on its size; not read"}}
			if d := cmp.Diff(want, r.Problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			if n := big.Read(); n > tc.maxRead {
				t.Errorf("Check read %d bytes of the 145 MB manifest; at most %d", n, tc.maxRead)
			}
		})
	}

	for _, n := range []int{manifestMaxGenerator, manifestMaxGenerator + 1} {
		m := vtReadManifest(t, dir)
		m.Generator.Module = strings.Repeat("m", n)
		vtWriteManifest(t, dir, m)
		var got []Problem
		for _, p := range vtReport(t, dir) {
			if p.Field == "generator.module" {
				got = append(got, p)
			}
		}
		var want []Problem
		if n > manifestMaxGenerator {
			want = []Problem{{File: ManifestPath, Field: "generator.module", Msg: "is 257 bytes of JSON, over the 256-byte bound"}}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("a generator module of %d bytes (-want +got):\n%s", n, d)
		}
	}
}
