package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/transform/grid"
)

// The test builds grid.json with transform/grid (the code under check) and
// rechecks it here; the check itself does not import transform/.

// gridTestInputs are what the test grid.json files were built with beside
// the CSV: the published fixed text, and the date, URL and retrieval date
// a manifest would record.
var gridTestInputs = func() *gridInputs {
	text, err := sourcetext.Load()
	if err != nil {
		panic(err)
	}
	return &gridInputs{&text.Ember, gridTestMeta.DataVersion, gridTestMeta.URL, gridTestMeta.Retrieved, gridEmberName}
}()

// gridTestCSV is the real Ember file of the repository's sample.
var gridTestCSV = sample.Ember()

var gridTestMeta = grid.SourceMeta{
	URL:         "https://files.ember-energy.org/public-downloads/yearly_full_release_long_format.csv",
	Retrieved:   "2026-09-26",
	Release:     "September 2026",
	DataVersion: "2026-09-27",
}

// gridTestBuild returns the archive (the CSV's bytes as published), grid.json
// and Build's summary, for the sample's CSV and a reference year (0:
// latest), streamed into the archive as the build streams it.
func gridTestBuild(t *testing.T, year int) (archive, gridJSON []byte, sum format.GridSummary) {
	t.Helper()
	f, err := os.Open(gridTestCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := grid.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var a bytes.Buffer
	tab, _, err := rd.Stream(&a)
	if err != nil {
		t.Fatal(err)
	}
	g, sum, err := grid.Build(tab, year, gridTestMeta)
	if err != nil {
		t.Fatal(err)
	}
	out, err := format.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), out, sum
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
	defArchive, def, _ := gridTestBuild(t, 0) // 2022, by the rule
	archive, gj, _ := gridTestBuild(t, 2024)  // 99 areas with 2024, 127 fallbacks
	pinnedArchive, pinned, _ := gridTestBuild(t, 2010)
	cases := gridCases1(defArchive, def, archive, gj, pinnedArchive, pinned)
	for _, tc := range append(cases, gridCases2(defArchive, def, archive, gj, pinnedArchive, pinned)...) {
		t.Run(tc.name, func(t *testing.T) {
			j := string(tc.json)
			if tc.edit != nil {
				j = tc.edit(t, j)
			}
			err := gridErr(bytes.NewReader(tc.archive), []byte(j))
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

// gridCase is one grid.json (or archive) of TestGrid and the substrings of
// the error it must give, in order; none: it passes.
type gridCase struct {
	name    string
	archive []byte
	json    []byte
	edit    func(t *testing.T, s string) string
	errs    []string
}

// gridSrc is the archived CSV's path, as the problems name it.
const gridSrc = "sources/ember/yearly_full_release_long_format.csv"

// replace edits grid.json: the first old becomes new.
func replace(old, new string) func(t *testing.T, s string) string {
	return func(t *testing.T, s string) string {
		out := strings.Replace(s, old, new, 1)
		if out == s {
			t.Fatalf("%q not in grid.json", old)
		}
		return out
	}
}

// gridCases1 are cases of TestGrid.
func gridCases1(defArchive, def, archive, gj, pinnedArchive, pinned []byte) []gridCase {
	const src = gridSrc
	return []gridCase{
		{name: "as built", archive: defArchive, json: def},
		{name: "pinned 2024", archive: archive, json: gj},
		{name: "pinned 2010", archive: pinnedArchive, json: pinned},
		{
			name: "value altered", archive: archive, json: gj,
			edit: replace(`"g_co2e_per_kwh": 344.14`, `"g_co2e_per_kwh": 341.0`),
			errs: []string{`grid.json: areas[81] (Germany): g_co2e_per_kwh is 341.0, recomputed 344.14 from ` + src + ` line 1994 (Value "344.14")`},
		},
		{
			name: "value misprinted", archive: archive, json: gj,
			edit: replace(`"g_co2e_per_kwh": 30.75`, `"g_co2e_per_kwh": 30.750`),
			errs: []string{`grid.json: areas[153] (Norway): g_co2e_per_kwh is 30.750, recomputed 30.75 from ` + src + ` line 3728 (Value "30.75")`},
		},
		{
			name: "area dropped", archive: archive, json: gj,
			edit: func(t *testing.T, s string) string { return gridTestDrop(t, s, "Norway") },
			errs: []string{`grid.json: areas has 225 entries, recomputed 226 (every area with a usable value up to 2024, by name)`,
				`grid.json: areas has no entry for Norway, recomputed one from ` + src + ` line 3728`},
		},
		{
			name: "region dropped", archive: archive, json: gj,
			edit: func(t *testing.T, s string) string { return gridTestDrop(t, s, "Oceania") },
			errs: []string{`grid.json: areas has no entry for Oceania, recomputed one from ` + src + ` line 3778`},
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
				`grid.json: areas[81] (Germany): iso3 is "DEX", recomputed "DEU" from ` + src + ` line 1994`,
				`grid.json: areas[222] (World): area_type is "Country or economy", recomputed "Region" from ` + src + ` line 5378`,
			},
		},
	}
}

// gridCases2 are cases of TestGrid.
func gridCases2(defArchive, def, archive, gj, pinnedArchive, pinned []byte) []gridCase {
	const src = gridSrc
	return []gridCase{
		{
			name: "year not the latest", archive: pinnedArchive, json: pinned,
			edit: replace(`"year_pinned": true`, `"year_pinned": false`),
			errs: []string{`grid.json: year is 2010 and not pinned, but the latest complete year is 2022 (the latest complete year: World has a value, and the countries with a value number at least 90% of those with a value in the year before; counts [{Year:2024 World:true Countries:86 CountriesYearBefore:172 Complete:false} {Year:2023 World:true Countries:172 CountriesYearBefore:212 Complete:false} {Year:2022 World:true Countries:212 CountriesYearBefore:212 Complete:true}])`},
		},
		{
			name: "year 2024 not pinned", archive: archive, json: gj,
			edit: replace(`"year_pinned": true`, `"year_pinned": false`),
			errs: []string{`grid.json: year is 2024 and not pinned, but the latest complete year is 2022`},
		},
		{
			// A fallback must say so, and the year beside it must be the
			// value's.
			name: "fallback not marked", archive: archive, json: gj,
			edit: replace(`"year": 2009,
      "fallback": true,`, `"year": 2009,
      "fallback": false,`),
			errs: []string{`grid.json: areas[221] (Western Sahara): fallback is false, recomputed true from ` + src + ` line 5353 (the area's latest usable value up to 2024 is 2009's)`},
		},
		{
			name: "fallback year altered", archive: archive, json: gj,
			edit: replace(`"year": 2009,
      "fallback": true,`, `"year": 2010,
      "fallback": true,`),
			errs: []string{`grid.json: areas[221] (Western Sahara): year is 2010, recomputed 2009 from ` + src + ` line 5353 (the area's latest usable value up to 2024 is 2009's)`},
		},
		{
			// An area with a reference-year value published as a fallback
			// to an older one.
			name: "fallback where the year has a value", archive: archive, json: gj,
			edit: replace(`"name": "Germany",
      "iso3": "DEU",
      "area_type": "Country or economy",
      "year": 2024,
      "fallback": false,
      "g_co2e_per_kwh": 344.14`, `"name": "Germany",
      "iso3": "DEU",
      "area_type": "Country or economy",
      "year": 2022,
      "fallback": true,
      "g_co2e_per_kwh": 420.11`),
			errs: []string{
				`grid.json: areas[81] (Germany): year is 2022, recomputed 2024 from ` + src + ` line 1994 (the area's latest usable value up to 2024 is 2024's)`,
				`grid.json: areas[81] (Germany): fallback is true, recomputed false from ` + src + ` line 1994`,
				`grid.json: areas[81] (Germany): g_co2e_per_kwh is 420.11, recomputed 344.14 from ` + src + ` line 1994 (Value "344.14")`,
			},
		},
		{
			name: "pinned to a year without values", archive: pinnedArchive, json: pinned,
			edit: func(t *testing.T, s string) string { return strings.ReplaceAll(s, `"year": 2010`, `"year": 1990`) },
			errs: []string{
				`grid.json: year is 1990, but the source has no usable World value for it`,
				`grid.json: areas has 225 entries, recomputed 0 (every area with a usable value up to 1990, by name)`,
			},
		},
		{
			name: "unknown area", archive: archive, json: gj,
			edit: replace(`"name": "Norway"`, `"name": "Norwa"`),
			errs: []string{
				`grid.json: areas[153] (Norway): name is "Norwa", recomputed "Norway" from ` + src + ` line 3728`,
			},
		},
		{
			name: "unknown key", archive: archive, json: gj,
			edit: replace(`"year_pinned": true,`, `"year_pinned": true, "pinned_by": "me",`),
			errs: []string{`grid.json: pinned_by is not a field of the recomputed file`},
		},
		{
			name: "not Ember's layout", archive: []byte("Area,ISO 3 code\n"), json: gj,
			errs: []string{src + `: header: has no column "Year"`},
		},
	}
}

// TestGridSource: problems in the archived CSV are named by line; blemishes
// are not problems but exclusions.
func TestGridSource(t *testing.T) {
	_, gj, _ := gridTestBuild(t, 2024)
	raw, err := os.ReadFile(gridTestCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	const src = "sources/ember/yearly_full_release_long_format.csv"
	for _, tc := range []struct{ name, csv, err string }{
		{"duplicate differing", string(raw) + strings.Replace(lines[1993], "344.14", "344.15", 1), src + `: line 5451: a second row for Germany 2024 (DEU "344.15") differs from line 1994's (DEU "344.14")`},
		{"exact duplicate", string(raw) + lines[1993], ""},
		{"no Variable", strings.Replace(string(raw), ",Variable,", ",Var,", 1), src + `: header: has no column "Variable"`},
		{"not a number", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,n/a,", 1), `line 1994: Value "n/a" is not a plain decimal`},
		{"not UTF-8", strings.Replace(string(raw), "Germany,DEU,2024", "Germ\xffany,DEU,2024", 1), src + `: line 1994: field 1 (Area) has bytes that are not UTF-8`},
		// Germany's 2024 value excluded: grid.json must fall back to 2023.
		{"NaN", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,NaN,", 1), `grid.json: areas[81] (Germany): year is 2024, recomputed 2023 from ` + src + ` line 1993 (the area's latest usable value up to 2024 is 2023's)`},
		{"negative", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,-3.5,", 1), `areas[81] (Germany): fallback is false, recomputed true from ` + src + ` line 1993 (the area's latest usable value up to 2024 is 2023's)`},
		{"blank", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,,", 1), `areas[81] (Germany): g_co2e_per_kwh is 344.14, recomputed 371.31 from ` + src + ` line 1993 (Value "371.31")`},
		{"implausible", strings.Replace(string(raw), "gCO2/kWh,344.14,", "gCO2/kWh,3441.4,", 1), `areas[81] (Germany): year is 2024, recomputed 2023 from ` + src + ` line 1993`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.csv == string(raw) {
				t.Fatal("the edit did not apply")
			}
			err := gridErr(strings.NewReader(tc.csv), gj)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// TestGridBlemishes: transform/grid's fixture of Ember's file as it really
// is passes, and the check recomputes the manifest's grid block written by
// hand in it (summary.json): the rule's counts, the fallbacks, the
// exclusions. A byte order mark before a quoted header parses.
func TestGridBlemishes(t *testing.T) {
	a, err := txtar.ParseFile("../transform/grid/testdata/blemishes.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range a.Files {
		files[f.Name] = f.Data
	}
	gj := bytes.TrimSuffix(files["grid.json"], []byte("\n"))
	sum, probs := gridCheck(bytes.NewReader(files["ember.csv"]), "ember.csv", gj, gridTestInputs)
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	var want ManifestGrid
	if err := json.Unmarshal(files["summary.json"], &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, sum.manifest); diff != "" {
		t.Errorf("manifest grid block (-want +got):\n%s", diff)
	}
	// Publishing an excluded value, or dropping a fallback, is caught.
	for _, tc := range []struct{ name, old, new, err string }{
		{"excluded value published", `"name": "Kosovo",
      "iso3": "XKX",
      "area_type": "Country or economy",
      "year": 2023,
      "fallback": true,`, `"name": "Kosovo",
      "iso3": "XKX",
      "area_type": "Country or economy",
      "year": 2024,
      "fallback": false,`, "grid.json: areas[10] (Kosovo): year is 2024, recomputed 2023 from ember.csv line 16 (the area's latest usable value up to 2024 is 2023's)"},
		{"fallback dropped", `    {
      "name": "Asia",
      "iso3": "",
      "area_type": "Region",
      "year": 2023,
      "fallback": true,
      "g_co2e_per_kwh": 560.1
    },
`, "", "grid.json: areas has no entry for Asia, recomputed one from ember.csv line 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := bytes.Replace(gj, []byte(tc.old), []byte(tc.new), 1)
			if bytes.Equal(bad, gj) {
				t.Fatalf("%q not in grid.json", tc.old)
			}
			_, probs := gridCheck(bytes.NewReader(files["ember.csv"]), "ember.csv", bad, gridTestInputs)
			if err := problemsError("grid", probs); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}

	bom, err := os.ReadFile("../transform/grid/testdata/bom-quoted.csv")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := grid.Parse(bytes.NewReader(bom))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := grid.Build(tab, 0, gridTestMeta)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := format.Marshal(g)
	if err := gridErr(bytes.NewReader(bom), out); err != nil {
		t.Errorf("BOM before a quoted header: %v", err)
	}
}

// gridManifestOf is the manifest's grid block for what Build returned.
func gridManifestOf(t *testing.T, sum format.GridSummary) *ManifestGrid {
	t.Helper()
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var m ManifestGrid
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// TestGridSnapshot runs the registered check on a folder holding the
// archive, grid.json and a manifest describing them.
func TestGridSnapshot(t *testing.T) {
	archive, gj, sum := gridTestBuild(t, 0)
	archiveSum := sha256.Sum256(archive)
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
				ManifestFile: ManifestFile{Path: "sources/ember/yearly_full_release_long_format.csv", Size: int64(len(archive)), SHA256: hex.EncodeToString(archiveSum[:])},
				Name:         "ember/yearly_full_release_long_format.csv",
				URL:          gridTestMeta.URL,
				Retrieved:    "2026-09-26T23:59:00Z",
			}},
			Outputs: []ManifestFile{{Path: "grid.json"}},
			Grid:    gridManifestOf(t, sum),
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
			name: "counts", edit: func(m *Manifest) { m.Grid.AreasWithoutYear, m.Grid.Fallbacks = 2, 0 },
			want: []string{
				"manifest.json: grid.areas_without_year is 2, recomputed 1 from sources/ember/yearly_full_release_long_format.csv",
				"manifest.json: grid.fallbacks is 0, recomputed 1 from sources/ember/yearly_full_release_long_format.csv",
			},
		},
		{
			name: "rule and candidates", edit: func(m *Manifest) {
				m.Grid.YearRule = "the latest year with a World value"
				m.Grid.YearCandidates = m.Grid.YearCandidates[:1]
			},
			want: []string{
				`manifest.json: grid.year_rule differs from the recomputed text at character 12: is "the latest year with a World value", recomputed "the latest complete year: World has a value, and th"... (the reviewed text, internal/sourcetext/ember.json)`,
				"manifest.json: grid.year_candidates has 1 entries, recomputed 3 from sources/ember/yearly_full_release_long_format.csv",
				`manifest.json: grid.year_candidates[1] is missing, recomputed {"year":2023,"world":true,"countries":172,"countries_year_before":212,"complete":false} from sources/ember/yearly_full_release_long_format.csv`,
				`manifest.json: grid.year_candidates[2] is missing, recomputed {"year":2022,"world":true,"countries":212,"countries_year_before":212,"complete":true} from sources/ember/yearly_full_release_long_format.csv`,
			},
		},
		{
			name: "exclusion invented", edit: func(m *Manifest) {
				m.Grid.Exclusions = []ManifestGridExclusion{{Area: "Germany", ISO3: "DEU", Year: 2024, Line: 1994, Value: "344.14", Reason: "blank value"}}
			},
			want: []string{
				"manifest.json: grid.exclusions has 1 entries, recomputed 0 from sources/ember/yearly_full_release_long_format.csv",
				`manifest.json: grid.exclusions[0] is {"area":"Germany","iso3":"DEU","year":2024,"line":1994,"value":"344.14","reason":"blank value"}, not among the recomputed entries from sources/ember/yearly_full_release_long_format.csv`,
			},
		},
		{
			name: "dates and URL", edit: func(m *Manifest) {
				m.Date = "2026-09-28"
				m.Sources[0].URL = "https://example.org/e.csv"
				m.Sources[0].Retrieved = "2026-09-27T00:00:01Z"
			},
			want: []string{
				`grid.json: data_version is "2026-09-27", recomputed "2026-09-28" (the manifest's date)`,
				`grid.json: source.url differs from the recomputed text at character 9: is "https://files.ember-energy.org/public-downloads/"..., recomputed "https://example.org/e.csv" (the URL the manifest records for ember/yearly_full_release_long_format.csv)`,
				`grid.json: source.retrieved is "2026-09-26", recomputed "2026-09-27" (the date the manifest records ember/yearly_full_release_long_format.csv was retrieved on)`,
			},
		},
		{
			name: "retrieval time unreadable", edit: func(m *Manifest) { m.Sources[0].Retrieved = "yesterday" },
			want: []string{
				`manifest.json: sources (sources/ember/yearly_full_release_long_format.csv): retrieved "yesterday" is neither an RFC 3339 time nor a YYYY-MM-DD date`,
				`grid.json: source.retrieved is "2026-09-26", recomputed "yesterday" (the date the manifest records ember/yearly_full_release_long_format.csv was retrieved on)`,
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
			for _, p := range gridSnapshotCheck(vtSnap(t, dir, m)) {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// gridErr runs the grid check on an archived CSV and grid.json, and
// returns nil or an error listing its problems.
func gridErr(archivedCSV io.Reader, gridJSON []byte) error {
	_, probs := gridCheck(archivedCSV, gridSourceFile, gridJSON, gridTestInputs)
	return problemsError("grid", probs)
}
