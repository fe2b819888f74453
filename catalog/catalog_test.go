package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
)

func TestMain(m *testing.M) { catalogtest.Main(m) }

func open(t *testing.T, dir string) (*Catalog, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	c, err := Open(dir, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return c, &logs
}

func ptr(f float64) *float64 { return &f }

// TestSeedPageFigures: the seed page prices Qwen 3 32B on 1 x B200 at 27.0
// kg in Saudi Arabia and 1.2 kg in Norway, with Ember's 2024 values.
func TestSeedPageFigures(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, err := c.Snapshot(Latest)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := s.Price(PriceRequest{Model: "Qwen 3 32B", Grids: []string{"Saudi Arabia", "nor", "IND", "World"}, GPU: "b200", Intensity: ptr(692)})
	if err != nil {
		t.Fatal(err)
	}
	type fig struct {
		Grid, Source, Kg, G string
		Year                int
	}
	var got []fig
	for _, r := range ans.Rows {
		if r.GPU != "B200" || r.NumGPUs != 1 || r.RowID != s.Published["qwen-3-32b"].Best["B200"].RowID || !r.IndexRow {
			t.Errorf("row %+v is not the B200 index row", r)
		}
		y := 0
		if r.GridYear != nil {
			y = *r.GridYear
		}
		got = append(got, fig{r.Grid, r.GridSource, js(t, r.KgPerBillion), js(t, r.GCO2ePerKWh), y})
	}
	want := []fig{
		{"Saudi Arabia", "ember", "27.0", "692.0", 2024},
		{"Norway", "ember", "1.2", "30.0", 2024},
		{"India", "ember", "27.6", "707.0", 2024},
		{"World", "ember", "18.5", "474.0", 2024},
		{"stated", "stated", "27.0", "692.0", 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("B200 prices (-want +got):\n%s", diff)
	}
	if r := ans.Rows[0]; js(t, r.WhPerMillion) != "39.05" || math.Abs(r.WhPerMillionUnrounded-39.05) > 0.005 {
		t.Errorf("Wh/M published %s, unrounded %v; want 39.05 and its unrounded value", js(t, r.WhPerMillion), r.WhPerMillionUnrounded)
	}
	var paths []string
	for _, f := range ans.Files {
		if len(f.SHA256) != 64 {
			t.Errorf("file %s: sha256 %q", f.Path, f.SHA256)
		}
		paths = append(paths, f.Path)
	}
	wantPaths := []string{"manifest.json", "models/qwen-3-32b.json", "grid.json", "sources/leaderboard/index.json",
		"sources/leaderboard/commits.json", "sources/leaderboard/tasks/lm-arena-chat.json"}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// The file hashes are those of the files on disk.
	b, _ := os.ReadFile(filepath.Join(catalogtest.Shared(t), catalogtest.Date, "grid.json"))
	if f, _ := s.File(format.GridPath); !bytes.Equal(f.Bytes, b) || ans.Files[2].SHA256 != sum(b) {
		t.Errorf("grid.json bytes or sha256 differ from the file on disk")
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rawRow is an upstream row of the archived task file, read here without
// transform.
type rawRow struct {
	ModelID    string  `json:"model_id"`
	GPU        string  `json:"gpu_model"`
	NumGPUs    int     `json:"num_gpus"`
	MaxNumSeqs int     `json:"max_num_seqs"`
	AvgBatch   float64 `json:"avg_batch_size"`
}

// TestBatchSelection checks the configuration chosen for a running batch
// against a selection made here from the raw task file: among the
// published configurations on the GPU, the nearest unrounded
// avg_batch_size, ties to the smaller.
func TestBatchSelection(t *testing.T) {
	root := catalogtest.Shared(t)
	c, _ := open(t, root)
	s, _ := c.Snapshot(catalogtest.Date)
	data, err := os.ReadFile(filepath.Join(root, catalogtest.Date, "sources/leaderboard/tasks/lm-arena-chat.json"))
	if err != nil {
		t.Fatal(err)
	}
	var task struct {
		Configurations []rawRow `json:"configurations"`
	}
	if err := json.Unmarshal(data, &task); err != nil {
		t.Fatal(err)
	}
	pm := s.Published["qwen-3-32b"]
	// The unrounded batch of each published B200 configuration.
	type cand struct {
		rowID string
		batch float64
	}
	var cands []cand
	for _, cf := range pm.Configurations {
		if cf.GPU != "B200" || cf.Repeat != 1 {
			continue
		}
		n := 0
		for _, r := range task.Configurations {
			if r.ModelID == pm.ModelID && r.GPU == "B200" && r.NumGPUs == cf.NumGPUs && r.MaxNumSeqs == cf.MaxNumSeqs {
				cands = append(cands, cand{cf.RowID, r.AvgBatch})
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%s: %d upstream rows", cf.RowID, n)
		}
	}
	if len(cands) < 3 {
		t.Fatalf("only %d B200 configurations", len(cands))
	}
	expect := func(n float64) string {
		best := cands[0]
		for _, cd := range cands[1:] {
			d, bd := math.Abs(cd.batch-n), math.Abs(best.batch-n)
			if d < bd || d == bd && cd.batch < best.batch {
				best = cd
			}
		}
		return best.rowID
	}
	batches := []float64{0.5, 1, 7, 8, 33, 100, 250, 1000, 100000}
	// Ties: the exact midpoint of two configurations' batches, with no
	// configuration nearer, goes to the smaller batch.
	ties := 0
	for i := range cands {
		for j := range cands {
			a, b := cands[i].batch, cands[j].batch
			if a < b && (a+b)/2-a == b-(a+b)/2 {
				batches = append(batches, (a+b)/2)
				if expect((a+b)/2) == cands[i].rowID {
					ties++
				}
			}
		}
	}
	if ties == 0 {
		t.Fatal("no tie to test in the data")
	}
	for _, n := range batches {
		ans, err := s.Price(PriceRequest{Model: "qwen-3-32b", GPU: "B200", Grids: []string{"NOR"}, Batch: ptr(n)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ans.Rows) != 1 || ans.Rows[0].RowID != expect(n) {
			t.Errorf("batch %v: rows %+v, want %s", n, ans.Rows, expect(n))
		}
		if ans.RunningBatch == nil || float64(*ans.RunningBatch) != n || !strings.Contains(ans.Selection, "nearest") {
			t.Errorf("batch %v: the answer does not say how the row was chosen: %q", n, ans.Selection)
		}
	}
	// Without a GPU, each GPU gets its own nearest configuration.
	ans, err := s.Price(PriceRequest{Model: "qwen-3-32b", Grids: []string{"NOR"}, Batch: ptr(1000)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Rows) != len(pm.GPUs) {
		t.Errorf("%d rows for %d GPUs", len(ans.Rows), len(pm.GPUs))
	}
}

func TestPriceErrors(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot("")
	many := make([]string, 51)
	for i := range many {
		many[i] = "IND"
	}
	for _, tc := range []struct {
		name    string
		req     PriceRequest
		kind    string
		what    string
		nearest string
	}{
		{"unknown model", PriceRequest{Model: "qwen-3-33b", Grids: []string{"IND"}}, NotFound, "model", "qwen-3-32b"},
		{"unknown grid", PriceRequest{Model: "qwen-3-32b", Grids: []string{"Germny"}}, NotFound, "grid", "Germany"},
		{"unknown gpu", PriceRequest{Model: "qwen-3-32b", GPU: "B20", Grids: []string{"IND"}}, NotFound, "gpu", "B200"},
		{"too many grids", PriceRequest{Model: "qwen-3-32b", Grids: many}, Invalid, "grid", ""},
		{"negative batch", PriceRequest{Model: "qwen-3-32b", Batch: ptr(-1)}, Invalid, "batch", ""},
		{"zero batch", PriceRequest{Model: "qwen-3-32b", Batch: ptr(0)}, Invalid, "batch", ""},
		{"NaN batch", PriceRequest{Model: "qwen-3-32b", Batch: ptr(math.NaN())}, Invalid, "batch", ""},
		{"negative intensity", PriceRequest{Model: "qwen-3-32b", Intensity: ptr(-5)}, Invalid, "intensity", ""},
		{"huge intensity", PriceRequest{Model: "qwen-3-32b", Intensity: ptr(1e9)}, Invalid, "intensity", ""},
		{"empty grid", PriceRequest{Model: "qwen-3-32b", Grids: []string{" "}}, Invalid, "grid", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Price(tc.req)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want a catalog Error", err)
			}
			if e.Kind != tc.kind || e.What != tc.what {
				t.Errorf("kind %s, what %s; want %s, %s (%v)", e.Kind, e.What, tc.kind, tc.what, err)
			}
			if tc.nearest != "" && (len(e.Nearest) == 0 || e.Nearest[0] != tc.nearest) {
				t.Errorf("nearest %q, want %q first", e.Nearest, tc.nearest)
			}
		})
	}
	if _, err := c.Snapshot("2026-09-28"); err == nil || !strings.Contains(err.Error(), `"2026-09-27"`) {
		t.Errorf("unknown date: %v, want the nearest date", err)
	}
}

// TestNamedErrors: an error about a parameter's value is worded in the
// name a surface gives it (the MCP server's running_batch, grid_intensity),
// the same rule after it; one whose detail names no parameter keeps it.
func TestNamedErrors(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot("")
	for _, tc := range []struct {
		req              PriceRequest
		what, name, want string
	}{
		{PriceRequest{Batch: ptr(1e-7)}, ParamBatch, "running_batch", "running_batch must be a number from 1e-06 to 100000"},
		{PriceRequest{Intensity: ptr(-1)}, ParamIntensity, "grid_intensity", "grid_intensity must be 0 or a number of g CO2e per kWh from 1e-06 to 2000"},
		{PriceRequest{NumGPUs: new(0)}, ParamNumGPUs, "--num-gpus", "--num-gpus must be a whole number from 1 to 1024"},
		{PriceRequest{Grids: []string{"Germny"}}, "grid", "grids", `grids "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`},
		{PriceRequest{Grids: []string{"UK"}}, "grid", "grids", `grids "UK": no value for United Kingdom (GBR) in the 2024 grid`},
	} {
		tc.req.Model = "qwen-3-32b"
		_, err := s.Price(tc.req)
		var e *Error
		if !errors.As(err, &e) || e.What != tc.what {
			t.Fatalf("%+v: error %v, want one about %s", tc.req, err, tc.what)
		}
		own := e.Error()
		n := e.Named(tc.name)
		if n.What != tc.name || n.Error() != tc.want || n.Kind != e.Kind || n.Query != e.Query {
			t.Errorf("%+v named %s: %+v (%q); want %q", tc.req, tc.name, n, n.Error(), tc.want)
		}
		if e.Rule != "" && e.Detail != tc.what+" "+e.Rule || e.Error() != own {
			t.Errorf("%+v: the catalog's own text %q (%q), after Named %q; want %q", tc.req, e.Detail, own, e.Error(), tc.what+" "+e.Rule)
		}
	}
}

// TestTamperedAndNewSnapshots: a snapshot that fails its manifest check is
// not served and is logged; the others are; a new dated folder is served
// after a rescan and becomes latest; a failed folder is tried again once
// its manifest changes.
func TestTamperedAndNewSnapshots(t *testing.T) {
	out := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	bad := catalogtest.BuildSmall(t, out, "2026-10-04", catalogtest.SevenGrids())
	gridFile := filepath.Join(bad, "grid.json")
	b, _ := os.ReadFile(gridFile)
	if err := os.WriteFile(gridFile, bytes.Replace(b, []byte("707.0"), []byte("70.7"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(out, "not-a-date"), 0o755)
	os.MkdirAll(filepath.Join(out, ".staging-2026-10-11-x"), 0o755)

	c, logs := open(t, out)
	if diff := cmp.Diff([]string{catalogtest.Date}, c.Dates()); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	if s, _ := c.Snapshot(Latest); s == nil || s.Date != catalogtest.Date {
		t.Errorf("latest is not %s", catalogtest.Date)
	}
	if !strings.Contains(logs.String(), "snapshot not served") || !strings.Contains(logs.String(), "grid.json") {
		t.Errorf("the tampered snapshot is not logged with its reason:\n%s", logs)
	}
	if _, err := c.Snapshot("2026-10-04"); err == nil {
		t.Error("the tampered snapshot is served")
	}

	// A rescan does not try the unchanged failed folder again.
	logs.Reset()
	if added, err := c.Rescan(); err != nil || len(added) != 0 || logs.Len() != 0 {
		t.Errorf("rescan: added %v, %v; logs %s", added, err, logs)
	}
	// A new snapshot appears (renamed into place, as a build publishes).
	// It is built elsewhere: a build refuses to follow a tampered one.
	newer := catalogtest.BuildSmall(t, t.TempDir(), "2026-10-11", catalogtest.SevenGrids())
	if err := os.Rename(newer, filepath.Join(out, "2026-10-11")); err != nil {
		t.Fatal(err)
	}
	added, err := c.Rescan()
	if err != nil || !cmp.Equal(added, []string{"2026-10-11"}) {
		t.Fatalf("rescan added %v, %v", added, err)
	}
	if s, _ := c.Snapshot(Latest); s.Date != "2026-10-11" {
		t.Errorf("latest is %s after the rescan", s.Date)
	}
	// The tampered one, rebuilt with --replace-like new files, is served.
	if err := os.RemoveAll(bad); err != nil {
		t.Fatal(err)
	}
	catalogtest.BuildSmall(t, out, "2026-10-04", catalogtest.SevenGrids())
	if added, err := c.Rescan(); err != nil || !cmp.Equal(added, []string{"2026-10-04"}) {
		t.Errorf("rescan after the rebuild added %v, %v", added, err)
	}
	if diff := cmp.Diff([]string{"2026-09-27", "2026-10-04", "2026-10-11"}, c.Dates()); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
}

// TestRun: Run picks up a new dated folder on its own.
func TestRun(t *testing.T) {
	out := t.TempDir()
	c, _ := open(t, out)
	if c.Ready() {
		t.Fatal("ready with no snapshot")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, time.Millisecond); close(done) }()
	newer := catalogtest.BuildSmall(t, t.TempDir(), catalogtest.Date, catalogtest.SevenGrids())
	if err := os.Rename(newer, filepath.Join(out, catalogtest.Date)); err != nil {
		t.Fatal(err)
	}
	// Bounded: a rescan every millisecond finds it long before.
	for i := 0; i < 10000 && !c.Ready(); i++ {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if !cmp.Equal(c.Dates(), []string{catalogtest.Date}) {
		t.Errorf("served %v after Run", c.Dates())
	}
}

// TestNoGrid: a snapshot without grid.json prices stated intensities only.
func TestNoGrid(t *testing.T) {
	out := t.TempDir()
	catalogtest.BuildSmall(t, out, catalogtest.Date, "")
	c, _ := open(t, out)
	s, _ := c.Snapshot(Latest)
	if s.Info().GridYear != nil {
		t.Error("grid_year set without grid.json")
	}
	ans, err := s.Price(PriceRequest{Model: "qwen-3-32b", GPU: "B200", Intensity: ptr(30)})
	if err != nil || len(ans.Rows) != 1 || js(t, ans.Rows[0].KgPerBillion) != "1.2" {
		t.Errorf("stated intensity without grid.json: %+v, %v", ans, err)
	}
	for _, req := range []PriceRequest{{Model: "qwen-3-32b"}, {Model: "qwen-3-32b", Grids: []string{"NOR"}}} {
		if _, err := s.Price(req); err == nil || !strings.Contains(err.Error(), "no grid.json") {
			t.Errorf("%+v: %v, want no grid.json", req, err)
		}
	}
}

func TestListings(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	l := s.ListModels()
	if len(l.Models) != 18 {
		t.Fatalf("%d models, want 18", len(l.Models))
	}
	for _, m := range l.Models {
		if m.Slug == "qwen-3-32b" {
			if len(m.IndexRows) != 2 || m.IndexRows[0].GPU != "B200" || js(t, m.IndexRows[0].WhPerMillion) != "39.05" {
				t.Errorf("qwen-3-32b index rows %+v", m.IndexRows)
			}
		}
	}
	g, err := s.ListGrids(GridQuery{Text: "or"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range g.Areas {
		names = append(names, a.Name)
	}
	if diff := cmp.Diff([]string{"Norway", "World"}, names); diff != "" {
		t.Errorf("grids matching \"or\" (-want +got):\n%s", diff)
	}
	if i := s.Info(); i.Models != 18 || i.GridYear == nil || *i.GridYear != 2024 || i.Compiled == "" || i.Retrieved != catalogtest.Retrieved {
		t.Errorf("info %+v", i)
	}
}

// TestConcurrentReadsAndRescan: answers go on while a rescan adds a
// snapshot (run with -race to check the locking).
func TestConcurrentReadsAndRescan(t *testing.T) {
	out := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	c, _ := open(t, out)
	newer := catalogtest.BuildSmall(t, t.TempDir(), "2026-10-04", catalogtest.SevenGrids())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				s, err := c.Snapshot(Latest)
				if err == nil {
					_, err = s.Price(PriceRequest{Model: "qwen-3-32b", Grids: []string{"NOR"}})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	if err := os.Rename(newer, filepath.Join(out, "2026-10-04")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Rescan(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s, _ := c.Snapshot(Latest); s.Date != "2026-10-04" {
		t.Errorf("latest %s", s.Date)
	}
}

// TestFallbackArea: on the sample's Ember file pinned to 2024, an area whose
// value is from an earlier year is priced with that year and fallback
// true; an area of the reference year with fallback false; a stated
// intensity with neither.
func TestFallbackArea(t *testing.T) {
	c, _ := open(t, catalogtest.SharedRealSmall(t))
	s, err := c.Snapshot(Latest)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := s.Price(PriceRequest{Model: "qwen-3-32b", GPU: "B200",
		Grids: []string{catalogtest.FallbackISO3, catalogtest.ReferenceISO3}, Intensity: ptr(100)})
	if err != nil {
		t.Fatal(err)
	}
	type fig struct {
		Grid     string
		Year     string
		Fallback bool
		G        string
	}
	var got []fig
	for _, r := range ans.Rows {
		got = append(got, fig{r.Grid, js(t, r.GridYear), r.Fallback, js(t, r.GCO2ePerKWh)})
	}
	want := []fig{
		{catalogtest.FallbackName, fmt.Sprint(catalogtest.FallbackYear), true, catalogtest.FallbackValue},
		{catalogtest.ReferenceName, "2024", false, "344.14"},
		{"stated", "null", false, "100.0"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// The key follows grid_year, as fallback follows year in grid.json.
	if b := js(t, ans.Rows[0]); !strings.Contains(b, `"grid_year":2009,"fallback":true,"g_co2e_per_kwh":666.67`) {
		t.Errorf("key order: %s", b)
	}
	if s.GridYear != 2024 || *s.Info().GridYear != 2024 {
		t.Errorf("grid year %d, info %d; want 2024", s.GridYear, *s.Info().GridYear)
	}
}

// TestOversizedManifestNotServed: a dated folder whose manifest.json is
// 145 MB (a sparse file: its size says so) is not served, and logged with
// the bound it is over, before a byte of it is read or decoded; the
// others are served, by the API, the site and the MCP server alike.
func TestOversizedManifestNotServed(t *testing.T) {
	out := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	big := filepath.Join(out, "2026-10-04")
	if err := os.Rename(catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), t.TempDir()), big); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(big, format.ManifestPath), 145e6); err != nil {
		t.Fatal(err)
	}
	c, logs := open(t, out)
	if d := cmp.Diff([]string{catalogtest.Date}, c.Dates()); d != "" {
		t.Errorf("served (-want +got):\n%s", d)
	}
	if want := "manifest.json is 145000000 bytes, over the 16 MiB bound"; !strings.Contains(logs.String(), "snapshot not served") || !strings.Contains(logs.String(), want) {
		t.Errorf("the oversized manifest is not logged saying %q:\n%s", want, logs)
	}
}

// TestServesASnapshotWithoutLicence: a snapshot whose manifest records no
// licence of its own (built by code that does not write the field) is
// served: the field is the checker's to require, not the schema's.
func TestServesASnapshotWithoutLicence(t *testing.T) {
	out := t.TempDir()
	dir := catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	mp := filepath.Join(dir, format.ManifestPath)
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var m format.Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Licence == nil {
		t.Fatalf("the built manifest: %v, licence %v", err, m.Licence)
	}
	m.Licence = nil
	if b, err = format.Marshal(&m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c, logs := open(t, out)
	if s, err := c.Snapshot(catalogtest.Date); err != nil || s.Manifest.Licence != nil {
		t.Errorf("not served: %v\n%s", err, logs)
	}
}
