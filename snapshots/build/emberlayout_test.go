package build_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/verify"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/validate"
)

// The same intensities in Ember's two layouts (transform/grid/testdata/
// README.md): World, Germany and five areas Ember renamed in July 2026.
const (
	renamesLong = "../../transform/grid/testdata/renames-long.csv"
	renamesJuly = "../../transform/grid/testdata/renames-july.csv"
)

func buildEmber(t *testing.T, out, date, ember string) *build.Result {
	t.Helper()
	res, err := build.Build(context.Background(), build.Options{
		Out: out, Date: date, Retrieved: snaptest.SeedFetched, GridYear: 2024, Generator: &snaptest.Generator,
		Source: fetch.Dir{Leaderboard: snaptest.SmallLeaderboard(t), Ember: ember, Origins: fetch.DefaultOrigins()},
	})
	if err != nil {
		t.Fatalf("build from %s: %v", ember, err)
	}
	return res
}

// diffDirs loads two snapshot folders and diffs them.
func diffDirs(t *testing.T, oldDir, newDir string) *diff.Report {
	t.Helper()
	return snaptest.Diff(t, snaptest.Load(t, oldDir), snaptest.Load(t, newDir))
}

func emberEntry(t *testing.T, m *format.Manifest) format.SourceFile {
	t.Helper()
	var found []format.SourceFile
	for _, s := range m.Sources {
		if fetch.IsEmber(s.Name) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d Ember sources in the manifest", len(found))
	}
	return found[0]
}

// TestEmberLayouts: a build reads either layout; each is archived under
// its own name with the URL of its own file (an offline build given the
// default --ember-url included), and the manifest records the layout and
// header of the July 2026 one only. The two snapshots, same values, diff
// to renames only, and a later build from the new layout over an earlier
// one from the long layout is no shrink of the grid.
func TestEmberLayouts(t *testing.T) {
	out := t.TempDir()
	long := buildEmber(t, out, "2026-09-27", renamesLong)
	july := buildEmber(t, out, "2026-09-28", renamesJuly)

	ls, js := emberEntry(t, long.Manifest), emberEntry(t, july.Manifest)
	if ls.Name != fetch.EmberYearly || ls.Path != "sources/"+fetch.EmberYearly || ls.URL != fetch.LongEmberURL || ls.Layout != "" || ls.Header != nil {
		t.Errorf("long layout's source entry %+v", ls)
	}
	if js.Name != fetch.EmberGlobal || js.Path != "sources/"+fetch.EmberGlobal || js.URL != fetch.DefaultEmberURL ||
		js.Layout != string(grid.LayoutJuly2026) || len(js.Header) != 24 || js.Header[16] != grid.ColIntensity {
		t.Errorf("July 2026 layout's source entry %+v", js)
	}
	b, err := os.ReadFile(filepath.Join(long.Dir, format.ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"layout"`) || strings.Contains(string(b), `"header"`) {
		t.Error("the long layout's manifest has layout or header fields")
	}
	for _, res := range []*build.Result{long, july} {
		g, err := os.ReadFile(filepath.Join(res.Dir, format.GridPath))
		if err != nil {
			t.Fatal(err)
		}
		if want := emberEntry(t, res.Manifest).URL; !strings.Contains(string(g), `"url": "`+want+`"`) {
			t.Errorf("%s: grid.json's source.url is not %s", res.Dir, want)
		}
		rep, err := verify.Verify(context.Background(), regfile.DirFS(res.Dir))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK {
			t.Errorf("verify %s: problems %v, diffs %v", res.Dir, rep.Problems, rep.Diffs)
		}
	}

	r := diffDirs(t, long.Dir, july.Dir)
	want := []diff.GridRename{
		{ISO3: "BIH", Old: "Bosnia and Herzegovina", New: "Bosnia Herzegovina"},
		{ISO3: "PHL", Old: "Philippines", New: "The Philippines"},
		{ISO3: "TUR", Old: "Turkey", New: "Türkiye"},
		{ISO3: "TWN", Old: "Taiwan", New: "Taiwan (China)"},
		{ISO3: "VNM", Old: "Vietnam", New: "Viet Nam"},
	}
	if diff := cmp.Diff(want, r.Grid.Renamed); diff != "" {
		t.Errorf("renamed (-want +got):\n%s", diff)
	}
	if len(r.Grid.Added)+len(r.Grid.Removed)+len(r.Grid.Changed)+len(r.IndexRows)+len(r.Configurations)+len(r.Models.Added)+len(r.Models.Removed) != 0 {
		t.Errorf("more than renames: grid added %v, removed %v, changed %v; %d index rows, %d configurations",
			r.Grid.Added, r.Grid.Removed, r.Grid.Changed, len(r.IndexRows), len(r.Configurations))
	}
	if r.Summary != "3 models, index rows unchanged, grid areas 5 renamed" {
		t.Errorf("summary %q", r.Summary)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "  renamed Turkey -> Türkiye (TUR)\n") {
		t.Errorf("the text report does not list the rename:\n%s", text.String())
	}
}

// TestEmberLayoutTampered: the checker holds the manifest's layout and
// header to the archived file's header.
func TestEmberLayoutTampered(t *testing.T) {
	res := buildEmber(t, t.TempDir(), "2026-09-27", renamesJuly)
	p := filepath.Join(res.Dir, format.ManifestPath)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, old, new, field string }{
		{"header", `"Electricity source",`, `"Source",`, "header"},
		{"layout dropped", `"layout": "july-2026",`, ``, "layout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(b), tc.old) {
				t.Fatalf("the manifest lacks %q", tc.old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			err := validate.Check(t.Context(), regfile.DirFS(res.Dir))
			var rep *validate.Report
			if !errors.As(err, &rep) {
				t.Fatalf("validate: %v, want a report", err)
			}
			found := false
			for _, pr := range rep.Problems {
				found = found || pr.File == format.ManifestPath && pr.Field == tc.field
			}
			if !found {
				t.Errorf("no problem on the manifest's %s: %v", tc.field, rep.Problems)
			}
		})
	}
}

// TestSevenGridsLayoutsDiff: the seed page's seven grids, none of them
// renamed, from the long layout and from ember-wide's conversion: the grid
// is the same, and only the archived source differs.
func TestSevenGridsLayoutsDiff(t *testing.T) {
	out := t.TempDir()
	long := buildEmber(t, out, "2026-09-27", "../../transform/grid/testdata/carbon-2024.csv")
	july := buildEmber(t, out, "2026-09-28", "../../transform/grid/testdata/carbon-2024-july.csv")
	for _, name := range []string{format.GridPath, "models/qwen-3-32b.json", "index.json", "pages/qwen-3-32b.md"} {
		a, err := os.ReadFile(filepath.Join(long.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(july.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		// The source URL and the data version are the only differences.
		a = []byte(strings.NewReplacer(fetch.LongEmberURL, fetch.DefaultEmberURL, "2026-09-27", "2026-09-28", "27 September 2026", "28 September 2026").Replace(string(a)))
		if string(a) != string(b) {
			t.Errorf("%s differs between the layouts", name)
		}
	}
	r := diffDirs(t, long.Dir, july.Dir)
	if r.DataChanged || len(r.Grid.Renamed) != 0 {
		t.Errorf("diff: data changed %v, renamed %v; summary %q", r.DataChanged, r.Grid.Renamed, r.Summary)
	}
}
