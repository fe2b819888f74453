package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/transform/grid"
)

// The test builds grid.json with transform/grid (the code under check) and
// rechecks it here; the check itself does not import transform/.

const gridTestCSV = "../../shared/upstream/ember/co2-intensity-long-format.csv"

var gridTestMeta = grid.SourceMeta{
	URL:         "https://files.ember-energy.org/public-downloads/yearly_full_release_long_format.csv",
	Retrieved:   "2026-09-26",
	Release:     "September 2026",
	DataVersion: "2026-09-27",
}

// gridTestBuild returns the archive (the CSV's bytes as published), grid.json
// and what Ingest and Build returned, for the shared CSV and a reference year
// (0: latest).
func gridTestBuild(t *testing.T, year int) (archive, gridJSON []byte, pub grid.Published, sum grid.Summary) {
	t.Helper()
	f, err := os.Open(gridTestCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var a bytes.Buffer
	tab, pub, err := grid.Ingest(f, &a)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(a.Bytes())
	if got := (grid.Published{Size: int64(a.Len()), SHA256: hex.EncodeToString(h[:])}); got != pub {
		t.Fatalf("Ingest says it read %+v, but archived %+v", pub, got)
	}
	g, sum, err := grid.Build(tab, year, gridTestMeta)
	if err != nil {
		t.Fatal(err)
	}
	out, err := grid.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), out, pub, sum
}

// gridTestDrop removes the areas entry whose name is name.
func gridTestDrop(t *testing.T, gridJSON, name string) string {
	t.Helper()
	re := regexp.MustCompile(`\n    \{\n      "name": "` + regexp.QuoteMeta(name) + `",[^}]*\},?`)
	out := re.ReplaceAllString(gridJSON, "")
	if out == gridJSON {
		t.Fatalf("no area %q in grid.json", name)
	}
	return out
}

func TestGrid(t *testing.T) {
	archive, gj, _, _ := gridTestBuild(t, 0)
	pinnedArchive, pinned, _, _ := gridTestBuild(t, 2010)
	const src = "sources/ember/yearly_full_release_long_format.csv"

	replace := func(old, new string) func(t *testing.T, s string) string {
		return func(t *testing.T, s string) string {
			out := strings.Replace(s, old, new, 1)
			if out == s {
				t.Fatalf("%q not in grid.json", old)
			}
			return out
		}
	}
	for _, tc := range []struct {
		name    string
		archive []byte
		json    []byte
		edit    func(t *testing.T, s string) string
		errs    []string // substrings of the error, in order; none: passes
	}{
		{name: "as built", archive: archive, json: gj},
		{name: "pinned 2010", archive: pinnedArchive, json: pinned},
		{
			name: "value altered", archive: archive, json: gj,
			edit: replace(`"g_co2e_per_kwh": 344.14`, `"g_co2e_per_kwh": 341.0`),
			errs: []string{`grid.json: areas[37] (Germany): g_co2e_per_kwh is 341.0, but ` + src + ` line 1994 says 344.14`},
		},
		{
			name: "value misprinted", archive: archive, json: gj,
			edit: replace(`"g_co2e_per_kwh": 30.75`, `"g_co2e_per_kwh": 30.750`),
			errs: []string{`grid.json: areas[67] (Norway): g_co2e_per_kwh is printed 30.750; the published form of "30.75" (` + src + ` line 3728) is 30.75`},
		},
		{
			name: "area dropped", archive: archive, json: gj,
			edit: func(t *testing.T, s string) string { return gridTestDrop(t, s, "Norway") },
			errs: []string{`grid.json: areas lacks Norway (NOR), which has a 2024 value of 30.75 on ` + src + ` line 3728`},
		},
		{
			name: "region dropped", archive: archive, json: gj,
			edit: func(t *testing.T, s string) string { return gridTestDrop(t, s, "Oceania") },
			errs: []string{`grid.json: areas lacks Oceania (no ISO code), which has a 2024 value of 493.42 on ` + src + ` line 3778`},
		},
		{
			name: "iso3 and area type altered", archive: archive, json: gj,
			edit: func(t *testing.T, s string) string {
				s = replace(`"iso3": "DEU"`, `"iso3": "DEX"`)(t, s)
				return replace(`"name": "World",
      "iso3": "",
      "area_type": "Region"`, `"name": "World",
      "iso3": "",
      "area_type": "Country or economy"`)(t, s)
			},
			errs: []string{
				`grid.json: areas[37] (Germany): iso3 is "DEX", but ` + src + ` line 1994 says "DEU"`,
				`grid.json: areas[98] (World): area_type is "Country or economy", but ` + src + ` line 5378 says "Region"`,
			},
		},
		{
			name: "year not the latest", archive: pinnedArchive, json: pinned,
			edit: replace(`"year_pinned": true`, `"year_pinned": false`),
			errs: []string{`grid.json: year is 2010 and not pinned, but the latest year with a World value is 2024 (` + src + ` line 5378)`},
		},
		{
			name: "pinned to a year without values", archive: pinnedArchive, json: pinned,
			edit: func(t *testing.T, s string) string { return strings.ReplaceAll(s, `"year": 2010`, `"year": 1990`) },
			errs: []string{
				`grid.json: areas[0] (ASEAN): name has no 1990 value in the source`,
				`grid.json: year is 1990, but the source has no value for it`,
			},
		},
		{
			name: "unknown area", archive: archive, json: gj,
			edit: replace(`"name": "Norway"`, `"name": "Norwa"`),
			errs: []string{
				`grid.json: areas[67] (Norwa): name is not an area of the source`,
				`grid.json: areas lacks Norway (NOR)`,
			},
		},
		{
			name: "unknown key", archive: archive, json: gj,
			edit: replace(`"year_pinned": false,`, `"year_pinned": false, "pinned_by": "me",`),
			errs: []string{`grid.json: cannot be decoded strictly: json: unknown field "pinned_by"`},
		},
		{
			name: "not Ember's layout", archive: []byte("Area,ISO 3 code\n"), json: gj,
			errs: []string{src + `: header: has no column "Year"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := string(tc.json)
			if tc.edit != nil {
				j = tc.edit(t, j)
			}
			err := Grid(bytes.NewReader(tc.archive), []byte(j))
			if len(tc.errs) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, want := range tc.errs {
				i := strings.Index(msg, want)
				if i < 0 {
					t.Fatalf("error\n%s\nlacks %q", msg, want)
				}
				msg = msg[i+len(want):]
			}
		})
	}
}

// TestGridSource: problems in the archived CSV are named by line.
func TestGridSource(t *testing.T) {
	_, gj, _, _ := gridTestBuild(t, 0)
	raw, err := os.ReadFile(gridTestCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	for _, tc := range []struct{ name, csv, err string }{
		{"duplicate", string(raw) + lines[1993], "sources/ember/yearly_full_release_long_format.csv: line 5451: duplicate value for Germany 2024 (first on line 1994)"},
		{"no Variable", strings.Replace(string(raw), ",Variable,", ",Var,", 1), `sources/ember/yearly_full_release_long_format.csv: header: has no column "Variable"`},
		{"NaN", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,NaN,", 1), `line 1994: Value "NaN" is not a plain decimal`},
		{"implausible", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,3441.4,", 1), `line 1994: Value "3441.4" is above the 2000 g CO2e/kWh plausibility bound`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Grid(strings.NewReader(tc.csv), gj)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// TestGridSnapshot runs the registered check on a folder holding the
// archive, grid.json and a manifest describing them.
func TestGridSnapshot(t *testing.T) {
	archive, gj, pub, sum := gridTestBuild(t, 0)
	dir := t.TempDir()
	for p, b := range map[string][]byte{"sources/ember/yearly_full_release_long_format.csv": archive, "grid.json": gj} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest := func() *Manifest {
		return &Manifest{
			Date: "2026-09-27",
			Sources: []ManifestSource{{
				ManifestFile: ManifestFile{Path: "sources/ember/yearly_full_release_long_format.csv", Size: pub.Size, SHA256: pub.SHA256},
				Name:         "ember/yearly_full_release_long_format.csv",
				URL:          gridTestMeta.URL,
				Retrieved:    "2026-09-26T23:59:00Z",
			}},
			Outputs: []ManifestFile{{Path: "grid.json"}},
			Grid:    &ManifestGrid{Year: sum.Year, Areas: sum.Areas, AreasWithoutYear: sum.AreasWithoutYear},
		}
	}
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want []string
	}{
		{name: "consistent"},
		{name: "no grid at all", edit: func(m *Manifest) { *m = Manifest{Date: m.Date} }},
		{
			name: "counts", edit: func(m *Manifest) { m.Grid.AreasWithoutYear = 126 },
			want: []string{"manifest.json: grid is {Year:2024 Areas:99 AreasWithoutYear:126}, but the archived CSV gives {Year:2024 Areas:99 AreasWithoutYear:127}"},
		},
		{
			name: "dates and URL", edit: func(m *Manifest) {
				m.Date = "2026-09-28"
				m.Sources[0].URL = "https://example.org/e.csv"
				m.Sources[0].Retrieved = "2026-09-27T00:00:01Z"
			},
			want: []string{
				`grid.json: data_version is "2026-09-27", but the manifest's date is "2026-09-28"`,
				`grid.json: source.url is "` + gridTestMeta.URL + `", but the manifest has ember/yearly_full_release_long_format.csv fetched from "https://example.org/e.csv"`,
				`grid.json: source.retrieved is "2026-09-26", but the manifest has ember/yearly_full_release_long_format.csv retrieved on 2026-09-27`,
			},
		},
		{
			name: "no grid block", edit: func(m *Manifest) { m.Grid = nil },
			want: []string{"manifest.json: grid is missing, but the snapshot has grid.json"},
		},
		{
			name: "no source", edit: func(m *Manifest) { m.Sources = nil },
			want: []string{"manifest.json: sources has no ember/yearly_full_release_long_format.csv, which grid.json is built from"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := manifest()
			if tc.edit != nil {
				tc.edit(m)
			}
			var got []string
			for _, p := range gridSnapshotCheck(&Snap{Dir: dir, Manifest: m}) {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
