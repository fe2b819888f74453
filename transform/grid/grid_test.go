package grid

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/tools/txtar"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/pricing"
)

// wantYearRule is the reference-year rule as the manifest words it.
const wantYearRule = "the latest complete year: World has a value, and the countries with a value number at least 90% of those with a value in the year before"

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sampleCSV holds the real intensity rows in Ember's layout (the
// repository's sample).
var sampleCSV = sample.Ember()

var testMeta = SourceMeta{
	URL:         "https://files.ember-energy.org/public-downloads/yearly_full_release_long_format.csv",
	Retrieved:   "2026-09-26",
	Release:     "September 2026",
	DataVersion: "2026-09-27",
}

func parseFile(t *testing.T, path string) *Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func build(t *testing.T, tab *Table, year int) (*format.Grid, format.GridSummary) {
	t.Helper()
	g, s, err := Build(tab, year, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	return g, s
}

func TestSampleFile(t *testing.T) {
	raw, err := os.ReadFile(sampleCSV)
	if err != nil {
		t.Fatal(err)
	}
	tab := parseFile(t, sampleCSV)

	// By the rule: 2024 and 2023 are preliminary (86 and 172 countries,
	// against 172 and 212 the year before); 2022 is complete.
	_, def := build(t, tab, 0)
	wantCandidates := []format.YearCount{
		{Year: 2024, World: true, Countries: 86, CountriesYearBefore: 172},
		{Year: 2023, World: true, Countries: 172, CountriesYearBefore: 212},
		{Year: 2022, World: true, Countries: 212, CountriesYearBefore: 212, Complete: true},
	}
	if diff := cmp.Diff(format.GridSummary{Year: 2022, Areas: 226, AreasWithoutYear: 1, Fallbacks: 1, YearRule: wantYearRule,
		YearCandidates: wantCandidates, Exclusions: []format.GridExclusion{}}, def); diff != "" {
		t.Errorf("default summary (-want +got):\n%s", diff)
	}

	// Pinned to 2024, as the examples are: the 99 areas with a 2024 value
	// and 127 fallbacks.
	g, sum := build(t, tab, 2024)
	if diff := cmp.Diff(format.GridSummary{Year: 2024, Areas: 226, AreasWithoutYear: 127, Fallbacks: 127, YearRule: wantYearRule, YearPinned: true,
		YearCandidates: wantCandidates, Exclusions: []format.GridExclusion{}}, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if tab.Records != 5449 || tab.Len() != 5449 || tab.ISO3Column != ColISO3 {
		t.Errorf("table: %d records, %d values, ISO column %q; want 5449, 5449, %q", tab.Records, tab.Len(), tab.ISO3Column, ColISO3)
	}
	types := map[string]int{}
	for _, a := range g.Areas {
		if a.Fallback {
			if a.Year >= 2024 {
				t.Errorf("%s: a fallback for year %d", a.Name, a.Year)
			}
			continue
		}
		types[a.AreaType]++
		if a.Year != 2024 {
			t.Errorf("%s: year %d", a.Name, a.Year)
		}
		if (a.AreaType == AreaTypeRegion) != (a.ISO3 == "") {
			t.Errorf("%s: area type %q with ISO 3 code %q", a.Name, a.AreaType, a.ISO3)
		}
	}
	if diff := cmp.Diff(map[string]int{AreaTypeCountry: 86, AreaTypeRegion: 13}, types); diff != "" {
		t.Errorf("areas by type (-want +got):\n%s", diff)
	}

	// Spot checks against the CSV's text: the line each value came from
	// says the area, the year and the value as printed.
	lines := strings.Split(string(raw), "\n")
	for _, tc := range []struct {
		query, name, iso3 string
		year              int
		value             string
	}{
		{"DEU", "Germany", "DEU", 2024, "344.14"},
		{"india", "India", "IND", 2024, "708.32"},
		{"NOR", "Norway", "NOR", 2024, "30.75"},
		{"World", "World", "", 2024, "473.01"},
		{"ASEAN", "ASEAN", "", 2024, "569.95"},
		// No value since 2009: that one, marked as a fallback.
		{"ESH", "Western Sahara", "ESH", 2009, "666.67"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := pricing.Lookup(g, tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if a.Name != tc.name || a.ISO3 != tc.iso3 || a.Year != tc.year || a.Fallback != (tc.year != 2024) {
				t.Errorf("got %q %q %d fallback %v, want %q %q %d", a.Name, a.ISO3, a.Year, a.Fallback, tc.name, tc.iso3, tc.year)
			}
			got, err := format.FormatFloat(float64(a.GCO2ePerKWh))
			if err != nil || got != tc.value {
				t.Errorf("g_co2e_per_kwh prints %s (%v), want %s", got, err, tc.value)
			}
			line := lines[a.Line-1]
			if !strings.HasPrefix(line, fmt.Sprintf("%s,%s,%d,", tc.name, tc.iso3, tc.year)) || !strings.Contains(line, ",gCO2/kWh,"+tc.value+",") {
				t.Errorf("line %d is %q; want %s %d = %s", a.Line, line, tc.name, tc.year, tc.value)
			}
		})
	}

	// Pinned: an earlier year lists the areas that have it, and the others
	// with a value before it as fallbacks.
	g2010, s2010 := build(t, tab, 2010)
	if !g2010.YearPinned || g2010.Year != 2010 || g2010.Source.Year != 2010 || s2010.Areas-s2010.Fallbacks+s2010.AreasWithoutYear != 226 {
		t.Errorf("pinned 2010: pinned %v, year %d/%d, summary %+v", g2010.YearPinned, g2010.Year, g2010.Source.Year, s2010)
	}
	if _, _, err := Build(tab, 1990, testMeta); err == nil || err.Error() != "grid: World has no usable value for 1990" {
		t.Errorf("pinned 1990: error %v", err)
	}
}

// TestCarbon: the seven grids of the Qwen 3 32B page, priced at its B200
// index row, 39.05 Wh/M.
func TestCarbon(t *testing.T) {
	g, sum := build(t, parseFile(t, "testdata/carbon-2024.csv"), 0)
	if sum.Year != 2024 || sum.Areas != 7 || sum.AreasWithoutYear != 0 || sum.Fallbacks != 0 {
		t.Errorf("summary %+v", sum)
	}
	for _, tc := range []struct {
		area, grid, kg string
	}{
		{"India", "707.0", "27.6"},
		{"Saudi Arabia", "692.0", "27.0"},
		{"Hong Kong", "676.0", "26.4"},
		{"Serbia", "668.0", "26.1"},
		{"World", "474.0", "18.5"},
		{"Germany", "340.0", "13.3"},
		{"Norway", "30.0", "1.2"},
	} {
		t.Run(tc.area, func(t *testing.T) {
			a, err := pricing.Lookup(g, tc.area)
			if err != nil {
				t.Fatal(err)
			}
			gotGrid, _ := format.FormatFloat(float64(a.GCO2ePerKWh))
			gotKg, err := format.FormatFloat(float64(pricing.KgPerBillionTokens(39.05, float64(a.GCO2ePerKWh))))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([2]string{tc.grid, tc.kg}, [2]string{gotGrid, gotKg}); diff != "" {
				t.Errorf("g/kWh and kg per billion tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		file     string
		has      []string // bytes the fixture must hold, lest an editor normalised it
		isoCol   string
		records  int
		want     []Value
		wantYear int
	}{
		{
			file: "old-header.csv", has: []string{"Country code", ",Country,"}, isoCol: ColISO3Old, records: 4,
			want: []Value{
				{Area: "Germany", ISO3: "DEU", AreaType: AreaTypeCountryOld, Year: 2021, GCO2PerKWh: 348.71, Raw: "348.71", Line: 2},
				{Area: "World", AreaType: AreaTypeRegion, Year: 2021, GCO2PerKWh: 480.22, Raw: "480.22", Line: 4},
				{Area: "Germany", ISO3: "DEU", AreaType: AreaTypeCountryOld, Year: 2022, GCO2PerKWh: 385.39, Raw: "385.39", Line: 5},
			},
			wantYear: 2021,
		},
		{
			file: "bom-crlf.csv", has: []string{"\ufeffArea,", "\r\n"}, isoCol: ColISO3, records: 3,
			want: []Value{
				{Area: "Germany", ISO3: "DEU", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 344.14, Raw: "344.14", Line: 2},
				{Area: "Norway", ISO3: "NOR", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 30.75, Raw: "30.75", Line: 3},
				{Area: "World", AreaType: AreaTypeRegion, Year: 2024, GCO2PerKWh: 473.01, Raw: "473.01", Line: 4},
			},
			wantYear: 2024,
		},
		{
			// A byte order mark before a quoted header (encoding/csv
			// calls the first quote a bare one).
			file: "bom-quoted.csv", has: []string{"\ufeff\"Area\",", "\r\n"}, isoCol: ColISO3, records: 2,
			want: []Value{
				{Area: "Falkland Islands [Malvinas]", ISO3: "FLK", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 380, Raw: "380.00", Line: 2},
				{Area: "World", AreaType: AreaTypeRegion, Year: 2024, GCO2PerKWh: 473.01, Raw: "473.01", Line: 3},
			},
			wantYear: 2024,
		},
		{
			file: "quoted.csv", has: []string{`"Korea, Republic of"`, "\"North\r\nAmerica\"", `""Democratic Republic""`}, isoCol: ColISO3, records: 4,
			want: []Value{
				{Area: "Korea, Republic of", ISO3: "KOR", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 436.33, Raw: "436.33", Line: 2},
				{Area: `Congo (the "Democratic Republic")`, ISO3: "COD", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 24.51, Raw: "24.51", Line: 5},
				{Area: "World", AreaType: AreaTypeRegion, Year: 2024, GCO2PerKWh: 473.01, Raw: "473.01", Line: 7},
			},
			wantYear: 2024,
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.has {
				if !bytes.Contains(raw, []byte(s)) {
					t.Fatalf("fixture lost %q", s)
				}
			}
			tab := parseFile(t, path)
			if tab.ISO3Column != tc.isoCol || tab.Records != tc.records {
				t.Errorf("ISO column %q, %d records; want %q, %d", tab.ISO3Column, tab.Records, tc.isoCol, tc.records)
			}
			if diff := cmp.Diff(tc.want, slices.Collect(tab.All())); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if g, _ := build(t, tab, 0); g.Year != tc.wantYear {
				t.Errorf("reference year %d, want %d", g.Year, tc.wantYear)
			}
		})
	}
}

// readTxtar returns a txtar archive's files by name.
func readTxtar(t *testing.T, path string) map[string]string {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
	}
	return files
}

// withBytes replaces each "<0xNN>" in a fixture with the byte 0xNN, so
// that fixtures can hold bytes that are not UTF-8 and stay text.
func withBytes(s string) string {
	return byteMark.ReplaceAllStringFunc(s, func(m string) string {
		b, _ := strconv.ParseUint(m[3:5], 16, 8)
		return string([]byte{byte(b)})
	})
}

var byteMark = regexp.MustCompile(`<0x[0-9A-F]{2}>`)

func TestMalformed(t *testing.T) {
	files := readTxtar(t, "testdata/malformed.txtar")
	cases := []struct{ file, err string }{
		{"missing-column.csv", `ember header: no column "Variable"`},
		{"missing-iso.csv", `ember header: no column "ISO 3 code" (or "Country code")`},
		{"duplicate-column.csv", `ember header: column "Value" appears twice`},
		{"no-intensity.csv", `ember: no rows with Category "Power sector emissions", Variable "CO2 intensity", Unit "gCO2/kWh"`},
		{"non-numeric.csv", `ember line 3: field "Value": "n/a" is not a number`},
		{"exponent.csv", `ember line 2: field "Value": "3.4414e2" is not a number`},
		{"duplicate.csv", `ember line 5: a second row for Germany 2024 (DEU "340.00") differs from line 2's (DEU "344.14")`},
		{"duplicate-other-iso.csv", `ember line 3: a second row for Kosovo 2024 (no ISO code "750.3") differs from line 2's (XKX "750.3")`},
		// Every line is checked, whatever row it is on; the line named is
		// the one holding the byte, in a quoted field over two lines too.
		{"not-utf8-intensity.csv", `ember line 3: bytes that are not UTF-8 (at byte 2 of the line)`},
		{"not-utf8-other-row.csv", `ember line 4: bytes that are not UTF-8 (at byte 76 of the line)`},
		{"not-utf8-quoted.csv", `ember line 4: bytes that are not UTF-8 (at byte 10 of the line)`},
		{"not-utf8-header.csv", `ember line 1: bytes that are not UTF-8 (at byte 41 of the line)`},
		{"area-type.csv", `ember line 2: field "Area type": unknown area type "Economic union"`},
		{"unit.csv", `ember line 2: field "Unit": "kgCO2/MWh" for Category "Power sector emissions", Variable "CO2 intensity"; want "gCO2/kWh"`},
		{"year.csv", `ember line 2: field "Year": "24" is not a year`},
		{"iso.csv", `ember line 2: field "ISO 3 code": "deu" is not empty nor three capital letters`},
		{"empty-area.csv", `ember line 2: field "Area" is empty`},
		{"ragged.csv", `ember line 3: wrong number of fields: 17, want 18`},
		{"bare-quote.csv", `ember line 3: bare " in non-quoted field`},
		{"open-quote.csv", `ember line 3: extraneous or missing " in quoted field`},
		{"empty.csv", `ember: empty file, no header`},
	}
	if len(cases) != len(files) {
		t.Errorf("%d cases for %d files in malformed.txtar", len(cases), len(files))
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			in, ok := files[tc.file]
			if !ok {
				t.Fatalf("no %s in malformed.txtar", tc.file)
			}
			in = withBytes(in)
			_, err := Parse(strings.NewReader(in))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse: error %v, want %q", err, tc.err)
			}
			_, _, err = ingest(strings.NewReader(in), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ingest: error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tab := &Table{}
	tab.add(Value{Area: "Germany", ISO3: "DEU", AreaType: AreaTypeCountry, Year: 2024, GCO2PerKWh: 344.14, Raw: "344.14", Line: 2})
	for _, tc := range []struct {
		name string
		tab  *Table
		year int
		meta SourceMeta
		err  string
	}{
		{"no World", tab, 0, testMeta, "grid: no year is complete (" + wantYearRule + "); pin a reference year"},
		{"pinned, no World", tab, 2024, testMeta, "grid: World has no usable value for 2024"},
		{"bad date", tab, 2024, SourceMeta{URL: "u", Retrieved: "26 Sep 2026", DataVersion: "2026-09-27"}, `grid: retrieval date "26 Sep 2026" is not a date (YYYY-MM-DD)`},
		{"no URL", tab, 2024, SourceMeta{Retrieved: "2026-09-26", DataVersion: "2026-09-27"}, "grid: no source URL"},
		{"empty", &Table{}, 0, testMeta, "grid: no intensity values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Build(tc.tab, tc.year, tc.meta)
			if err == nil || err.Error() != tc.err {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
	// An empty release says so.
	tab.add(Value{Area: format.World, AreaType: AreaTypeRegion, Year: 2024, GCO2PerKWh: 473.01, Raw: "473.01", Line: 3})
	g, _, err := Build(tab, 2024, SourceMeta{URL: "https://example.org/e.csv", Retrieved: "2026-09-26", DataVersion: "2026-09-27"})
	if err != nil || g.Source.Release != "not stated" || !g.YearPinned {
		t.Errorf("pinned: %v, release %q", err, g.Source.Release)
	}
}

// TestBlemishes: Ember's file as it really is, in small (blemishes.txtar):
// the preliminary 2025 is passed over for 2024, every blemish is an
// exclusion with its line, and the areas without a usable 2024 value are
// listed with their latest earlier one, marked. The expected grid.json and
// manifest grid block are written by hand in the fixture.
func TestBlemishes(t *testing.T) {
	files := readTxtar(t, "testdata/blemishes.txtar")
	for _, s := range []string{`"Palestine, State of"`, "Cote d'Ivoire,", "Falkland Islands [Malvinas],", "Kosovo,XKX,", "Costa Rica,CRI,2025,Country or economy,,,,,,,,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,-37.9,", "Asia,,2024,Region"} {
		if !strings.Contains(files["ember.csv"], s) {
			t.Fatalf("fixture lost %q", s)
		}
	}
	tab, err := Parse(strings.NewReader(files["ember.csv"]))
	if err != nil {
		t.Fatal(err)
	}
	g, sum := build(t, tab, 0)
	got, err := format.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.TrimSuffix(files["grid.json"], "\n"), string(got)); diff != "" {
		t.Errorf("grid.json (-want +got):\n%s", diff)
	}
	var want format.GridSummary
	if err := json.Unmarshal([]byte(files["summary.json"]), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	// Pinned to the preliminary year, its gaps are filled from 2024 and
	// 2023; the excluded 2025 values are never published.
	g25, s25 := build(t, tab, 2025)
	if s25.Year != 2025 || !s25.YearPinned || s25.Fallbacks != 11 || s25.Areas != 16 || s25.AreasWithoutYear != 11 {
		t.Errorf("pinned 2025: summary %+v", s25)
	}
	for _, tc := range []struct {
		area     string
		year     int
		fallback bool
		value    float64
	}{{"Costa Rica", 2024, true, 63}, {"Palestine, State of", 2024, true, 510}, {"Bhutan", 2025, false, 0.5}, {"Kosovo", 2023, true, 912.5}} {
		a, err := pricing.Lookup(g25, tc.area)
		if err != nil || a.Year != tc.year || a.Fallback != tc.fallback || float64(a.GCO2ePerKWh) != tc.value {
			t.Errorf("pinned 2025: %s is %+v (%v), want %d %v %v", tc.area, a, err, tc.year, tc.fallback, tc.value)
		}
	}
}

// TestReferenceYear: the rule picks the latest complete year; a table of
// small files, each row "Area,ISO,Year,Area type,Value" (C for a country,
// R for a region) expanded into Ember's layout.
func TestReferenceYear(t *testing.T) {
	countries := func(year, n int) []string {
		var rows []string
		for i := range n {
			rows = append(rows, fmt.Sprintf("Country %d,C%c%c,%d,C,%d.5", i, 'A'+i/26, 'A'+i%26, year, 100+i))
		}
		return rows
	}
	cat := func(parts ...[]string) []string { return slices.Concat(parts...) }
	world := func(year int, v string) []string { return []string{fmt.Sprintf("World,,%d,R,%s", year, v)} }
	for _, tc := range []struct {
		name       string
		rows       []string
		pin        int
		want       int
		candidates []format.YearCount
		err        string
	}{
		{name: "one year", rows: cat(world(2024, "473.01"), countries(2024, 3)), want: 2024,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 3, CountriesYearBefore: 0, Complete: true}}},
		{name: "exactly 90%", rows: cat(world(2023, "480"), countries(2023, 10), world(2024, "473"), countries(2024, 9)), want: 2024,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 9, CountriesYearBefore: 10, Complete: true}}},
		{name: "under 90%", rows: cat(world(2023, "480"), countries(2023, 10), world(2024, "473"), countries(2024, 8)), want: 2023,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 8, CountriesYearBefore: 10, Complete: false}, {Year: 2023, World: true, Countries: 10, CountriesYearBefore: 0, Complete: true}}},
		{name: "regions are not countries", rows: cat(world(2023, "480"), countries(2023, 10), world(2024, "473"), countries(2024, 8),
			[]string{"Asia,,2024,R,560", "EU,,2024,R,213", "Africa,,2024,R,490"}), want: 2023,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 8, CountriesYearBefore: 10, Complete: false}, {Year: 2023, World: true, Countries: 10, CountriesYearBefore: 0, Complete: true}}},
		{name: "no World in the latest year", rows: cat(world(2023, "480"), countries(2023, 3), countries(2024, 3)), want: 2023,
			candidates: []format.YearCount{{Year: 2024, World: false, Countries: 3, CountriesYearBefore: 3, Complete: false}, {Year: 2023, World: true, Countries: 3, CountriesYearBefore: 0, Complete: true}}},
		{name: "World's latest value excluded", rows: cat(world(2023, "480"), countries(2023, 3), world(2024, "-4.2"), countries(2024, 3)), want: 2023,
			candidates: []format.YearCount{{Year: 2024, World: false, Countries: 3, CountriesYearBefore: 3, Complete: false}, {Year: 2023, World: true, Countries: 3, CountriesYearBefore: 0, Complete: true}}},
		{name: "blank values do not count", rows: cat(world(2023, "480"), countries(2023, 10), world(2024, "473"), countries(2024, 9),
			[]string{"Kosovo,XKX,2024,C,"}), want: 2024,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 9, CountriesYearBefore: 10, Complete: true}}},
		{name: "pinned", rows: cat(world(2023, "480"), countries(2023, 10), world(2024, "473"), countries(2024, 8)), pin: 2024, want: 2024,
			candidates: []format.YearCount{{Year: 2024, World: true, Countries: 8, CountriesYearBefore: 10, Complete: false}, {Year: 2023, World: true, Countries: 10, CountriesYearBefore: 0, Complete: true}}},
		{name: "pinned, World without a value", rows: cat(world(2023, "480"), countries(2023, 10), countries(2024, 10)), pin: 2024,
			err: "grid: World has no usable value for 2024"},
		{name: "no complete year", rows: cat(countries(2022, 10), world(2023, "480"), countries(2023, 5)),
			err: "grid: no year is complete"},
		{name: "World only excluded", rows: world(2024, "NaN"), err: "grid: no year is complete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("Area,ISO 3 code,Year,Area type,Category,Variable,Unit,Value\n")
			for _, r := range tc.rows {
				f := strings.Split(r, ",")
				typ := map[string]string{"C": AreaTypeCountry, "R": AreaTypeRegion}[f[3]]
				fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,%s\n", f[0], f[1], f[2], typ, Category, Variable, Unit, f[4])
			}
			tab, err := Parse(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			g, sum, err := Build(tab, tc.pin, testMeta)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Year != tc.want || g.YearPinned != (tc.pin != 0) || sum.YearRule != wantYearRule {
				t.Errorf("year %d pinned %v rule %q, want %d", g.Year, g.YearPinned, sum.YearRule, tc.want)
			}
			if diff := cmp.Diff(tc.candidates, sum.YearCandidates); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
		})
	}
}

// published is the size and sha256 (lower-case hex) of the bytes as read,
// that is as published upstream, which are also the bytes archived.
type published struct {
	Size   int64
	SHA256 string
}

// ingest is the Ember stage as the build runs it: NewReader, then Stream
// into archive, the bytes hashed as they are archived.
func ingest(r io.Reader, archive io.Writer) (*Table, published, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, published{}, err
	}
	h := sha256.New()
	t, n, err := rd.Stream(io.MultiWriter(h, archive))
	if err != nil {
		return nil, published{}, err
	}
	return t, published{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// TestIngest: the archive is the input, byte for byte (not compressed), so
// its size and sha256 are those of the bytes Stream read, which are the
// input's; a second run, fed one byte per Read, writes the same archive
// and the same grid.json.
func TestIngest(t *testing.T) {
	for _, path := range []string{sampleCSV, "testdata/bom-crlf.csv", "testdata/bom-quoted.csv", "testdata/quoted.csv", "testdata/carbon-2024-july.csv", "testdata/renames-july.csv"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(in)
			want := published{Size: int64(len(in)), SHA256: hex.EncodeToString(sum[:])}
			var archives, grids [2][]byte
			for i := range 2 {
				var r io.Reader = bytes.NewReader(in)
				if i == 1 {
					r = iotest.OneByteReader(r)
				}
				var a bytes.Buffer
				tab, pub, err := ingest(r, &a)
				if err != nil {
					t.Fatal(err)
				}
				if pub != want {
					t.Errorf("published %+v, want %+v", pub, want)
				}
				if !bytes.Equal(a.Bytes(), in) {
					t.Errorf("archive is %d bytes that differ from the %d read", a.Len(), len(in))
				}
				asum := sha256.Sum256(a.Bytes())
				if got := (published{Size: int64(a.Len()), SHA256: hex.EncodeToString(asum[:])}); got != pub {
					t.Errorf("archive has size and sha256 %+v, but the stream read %+v", got, pub)
				}
				parsed := parseFile(t, path)
				if diff := cmp.Diff(parsed, tab, cmp.AllowUnexported(Table{}, row{}, place{})); diff != "" {
					t.Errorf("ingest and Parse differ (-Parse +ingest):\n%s", diff)
				}
				g, _ := build(t, tab, 0)
				if grids[i], err = format.Marshal(g); err != nil {
					t.Fatal(err)
				}
				archives[i] = a.Bytes()
			}
			if !bytes.Equal(archives[0], archives[1]) || !bytes.Equal(grids[0], grids[1]) {
				t.Error("two runs on the same input differ")
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestIngestArchiveError(t *testing.T) {
	f, err := os.Open(sampleCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := ingest(f, failWriter{}); err == nil || !strings.Contains(err.Error(), io.ErrClosedPipe.Error()) {
		t.Errorf("error %v, want the archive's write error", err)
	}
}

// TestMarshal compares grid.json for the carbon fixture with the golden
// file, byte for byte (go test -update rewrites it), and checks the layout.
func TestMarshal(t *testing.T) {
	g, _ := build(t, parseFile(t, "testdata/carbon-2024.csv"), 0)
	got, err := format.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/carbon-2024.grid.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("grid.json (-golden +got):\n%s", diff)
	}
	if bytes.HasSuffix(got, []byte("\n")) || !bytes.Contains(got, []byte("\n  \"data_version\": \"2026-09-27\",\n")) {
		t.Error("grid.json: want two-space indent and no trailing newline")
	}
	// No HTML escaping.
	g.Areas[0].Name = "A & B <C>"
	got, _ = format.Marshal(g)
	if !bytes.Contains(got, []byte(`"A & B <C>"`)) {
		t.Error("Marshal escapes HTML")
	}
}

func TestSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	f, err := os.Open("../../schemas/grid.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://schemas.greentokens.invalid/grid.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	valid := func(b []byte) error {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return err
		}
		return sch.Validate(inst)
	}
	for _, path := range []string{sampleCSV, "testdata/carbon-2024.csv", "testdata/old-header.csv", "testdata/quoted.csv"} {
		g, _ := build(t, parseFile(t, path), 0)
		b, err := format.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := valid(b); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	// The hand-written grid.json with fallbacks, too.
	if err := valid([]byte(readTxtar(t, "testdata/blemishes.txtar")["grid.json"])); err != nil {
		t.Errorf("blemishes.txtar grid.json: %v", err)
	}
	g, _ := build(t, parseFile(t, "testdata/carbon-2024.csv"), 0)
	good, _ := format.Marshal(g)
	for _, tc := range []struct{ name, old, new string }{
		{"extra key", `"year_pinned": false,`, `"year_pinned": false, "extra": 1,`},
		{"bad iso3", `"iso3": "DEU"`, `"iso3": "De"`},
		{"bad date", `"retrieved": "2026-09-26"`, `"retrieved": "2026-13-26"`},
		{"negative", `"g_co2e_per_kwh": 340.0`, `"g_co2e_per_kwh": -340.0`},
		{"area type", `"area_type": "Region"`, `"area_type": "Continent"`},
		{"string value", `"g_co2e_per_kwh": 340.0`, `"g_co2e_per_kwh": "340.0"`},
		{"above the bound", `"g_co2e_per_kwh": 340.0`, `"g_co2e_per_kwh": 3400.0`},
		{"fallback not a boolean", `"fallback": false`, `"fallback": "no"`},
		{"fallback missing", `"year": 2024,
      "fallback": false,`, `"year": 2024,`},
	} {
		bad := strings.Replace(string(good), tc.old, tc.new, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q not in grid.json", tc.name, tc.old)
		}
		if valid([]byte(bad)) == nil {
			t.Errorf("%s: schema accepts it", tc.name)
		}
	}
}

// TestReasonImplausible: the reason of a value above the bound names the
// bound.
func TestReasonImplausible(t *testing.T) {
	if want := fmt.Sprintf("above the %d g CO2e/kWh plausibility bound", format.MaxGCO2PerKWh); ReasonImplausible != want {
		t.Errorf("ReasonImplausible = %q, want %q", ReasonImplausible, want)
	}
}
