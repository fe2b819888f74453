package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/boundtest"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/transform/grid"
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
		{"a line of Ember's CSV", gridMaxLine, grid.MaxLineBytes},
		{"an area's name", gridMaxArea, grid.MaxAreaBytes},
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

// TestGridLineBound: a record of the archived Ember CSV over the bound on
// a line (8 MB without a line end, or a quoted field of line ends) is a
// problem naming the line it starts on, once no more than the bound and
// the read buffer have been read of it; a snapshot that archives one
// fails its checks, naming the file and the line.
func TestGridLineBound(t *testing.T) {
	header := "Area,ISO 3 code,Year,Area type,Category,Subcategory,Variable,Unit,Value\n"
	record := "World,,2024,Region,Electricity generation,"
	for _, tc := range []struct {
		name string
		head string
		fill byte
		line int
	}{
		{"no line end", header + record, 'x', 2},
		{"a quoted field of line ends", header + record + "Fuel,Coal,TWh,1.0\n" + record + `"`, '\n', 3},
		{"a header without a line end", "Area,", 'x', 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &boundtest.Reader{Head: []byte(tc.head), Fill: tc.fill}
			rows, probs, _ := gridReadCSV(io.LimitReader(src, 8<<20), gridSourceFile)
			where := "header"
			if tc.line > 1 {
				where = fmt.Sprintf("line %d", tc.line)
			}
			want := []Problem{{File: gridSourceFile, Where: where, Msg: "has a record of over 65536 bytes before its line end (the bound on a line); not read further"}}
			if d := cmp.Diff(want, probs); d != "" || rows != nil {
				t.Errorf("%d rows, problems (-want +got):\n%s", len(rows), d)
			}
			if limit := int64(len(tc.head) + gridMaxLine + 1<<20); src.N() > limit {
				t.Errorf("read %d bytes of an 8 MB record; at most %d", src.N(), limit)
			}
		})
	}

	dir := vtBuild(t, vtFixture{leaderboard: vtSeed, grid: true})
	vtEditFile(t, dir, gridSourceFile, true, func(b []byte) []byte {
		first, _, _ := bytes.Cut(b, []byte("\n"))
		return append(append(first, '\n'), bytes.Repeat([]byte("x"), 1<<20)...)
	})
	var got []Problem
	for _, p := range vtReport(t, dir) {
		if p.File == gridSourceFile {
			got = append(got, p)
		}
	}
	want := []Problem{{File: gridSourceFile, Where: "line 2", Msg: "has a record of over 65536 bytes before its line end (the bound on a line); not read further"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("a snapshot archiving a 1 MB record (-want +got):\n%s", d)
	}
}

// TestGridAreaNameBound: an intensity row of the archived Ember CSV whose
// Area is over the bound on an area name is a problem naming the line; a
// name at the bound is none of its own.
func TestGridAreaNameBound(t *testing.T) {
	header := "Area,ISO 3 code,Year,Area type,Category,Subcategory,Variable,Unit,Value\n"
	row := "%s,,2024,Region,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,474.0\n"
	for _, n := range []int{gridMaxArea, gridMaxArea + 1} {
		in := header + fmt.Sprintf(row, "World") + fmt.Sprintf(row, strings.Repeat("a", n))
		rows, probs, _ := gridReadCSV(strings.NewReader(in), gridSourceFile)
		var want []Problem
		if n > gridMaxArea {
			want = []Problem{{File: gridSourceFile, Where: "line 3", Msg: "Area is 201 bytes, over the 200-byte bound on an area name"}}
		}
		if d := cmp.Diff(want, probs); d != "" {
			t.Errorf("an area name of %d bytes (-want +got):\n%s", n, d)
		}
		if wantRows := 2 - len(want); len(rows) != wantRows {
			t.Errorf("an area name of %d bytes: %d rows, want %d", n, len(rows), wantRows)
		}
	}
}
