package grid

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
)

// TestSevenGridsEitherLayout: the seed page's seven 2024 values give the
// same grid.json from the long layout and from the July 2026 one
// (testdata/carbon-2024-july.csv is ember-wide's conversion of
// carbon-2024.csv; see testdata/README.md).
func TestSevenGridsEitherLayout(t *testing.T) {
	long := parseFile(t, "testdata/carbon-2024.csv")
	july := parseFile(t, "testdata/carbon-2024-july.csv")
	if long.Layout != LayoutLong || july.Layout != LayoutJuly2026 {
		t.Fatalf("layouts %q and %q, want %q and %q", long.Layout, july.Layout, LayoutLong, LayoutJuly2026)
	}
	if !slices.Equal(july.Header[:5], []string{ColArea, ColISO3, ColYear, ColAreaType, ColSource}) || len(july.Header) != 24 {
		t.Errorf("July header %q", july.Header)
	}
	gl, sl := build(t, long, 0)
	gj, sj := build(t, july, 0)
	bl, _ := format.Marshal(gl)
	bj, _ := format.Marshal(gj)
	if diff := cmp.Diff(string(bl), string(bj)); diff != "" {
		t.Errorf("grid.json from the long and the July layout (-long +july):\n%s", diff)
	}
	if diff := cmp.Diff(sl, sj); diff != "" {
		t.Errorf("summary from the long and the July layout (-long +july):\n%s", diff)
	}
	want := map[string]float64{"IND": 707, "SAU": 692, "HKG": 676, "SRB": 668, "World": 474, "DEU": 340, "NOR": 30}
	for q, v := range want {
		a, err := pricing.Lookup(gj, q)
		if err != nil || float64(a.GCO2ePerKWh) != v {
			t.Errorf("July layout: %s is %+v (%v), want %v", q, a, err, v)
		}
	}
	// Only the Total generation rows are read: 7 of 119.
	if july.Records != 119 || july.Len() != 7 {
		t.Errorf("July layout: %d records, %d values; want 119, 7", july.Records, july.Len())
	}
}

// TestJulyLayout: the July 2026 layout's hostile cases (testdata/july.txtar).
func TestJulyLayout(t *testing.T) {
	files := readTxtar(t, "testdata/july.txtar")
	for _, tc := range []struct{ file, err string }{
		{"missing-intensity.csv", `ember header: no column "Emissions intensity (gCO2e/kWh)" (Ember's July 2026 layout needs "Area", "ISO 3 code", "Year", "Area type", "Electricity source", "Emissions intensity (gCO2e/kWh)")`},
		{"missing-iso.csv", `ember header: no column "ISO 3 code" (Ember's July 2026 layout needs "Area", "ISO 3 code", "Year", "Area type", "Electricity source", "Emissions intensity (gCO2e/kWh)")`},
		{"no-total.csv", `ember: no rows with Electricity source "Total generation"; the file's Electricity source values are "Coal", "Solar"`},
		{"area-type.csv", `ember line 3: field "Area type": unknown area type "Economic union" (want one of "Country or economy", "Region")`},
		{"non-numeric.csv", `ember line 2: field "Emissions intensity (gCO2e/kWh)": "n/a" is not a number`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, ok := files[tc.file]
			if !ok {
				t.Fatalf("no %s in july.txtar", tc.file)
			}
			_, err := Parse(strings.NewReader(in))
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse: error %v, want %q", err, tc.err)
			}
			// Stream is not reached: NewReader refuses the header before a byte is archived.
			var a bytes.Buffer
			if _, _, err = ingest(strings.NewReader(in), &a); err == nil || err.Error() != tc.err {
				t.Errorf("ingest: error %v, want %q", err, tc.err)
			}
			if strings.HasPrefix(tc.err, "ember header") && a.Len() != 0 {
				t.Errorf("ingest archived %d bytes of a file whose header it refuses", a.Len())
			}
		})
	}

	// A blank intensity on a Total generation row is a recorded exclusion;
	// the other sources' rows, intensities or not, never reach the table.
	tab, err := Parse(strings.NewReader(files["blank.csv"]))
	if err != nil {
		t.Fatal(err)
	}
	want := []format.GridExclusion{{Area: "Germany", ISO3: "DEU", Year: 2024, Line: 4, Value: "", Reason: ReasonBlank}}
	if diff := cmp.Diff(want, tab.Excluded); diff != "" {
		t.Errorf("exclusions (-want +got):\n%s", diff)
	}
	g, sum := build(t, tab, 0)
	var got []string
	for _, a := range g.Areas {
		got = append(got, fmt.Sprintf("%s %v", a.Name, a.GCO2ePerKWh))
	}
	if diff := cmp.Diff([]string{"Norway 30", "World 474"}, got); diff != "" {
		t.Errorf("areas (-want +got):\n%s", diff)
	}
	if sum.AreasWithoutYear != 1 {
		t.Errorf("areas without the year: %d, want 1 (Germany)", sum.AreasWithoutYear)
	}

	// Columns are found by name, whatever their order; unknown ones are
	// ignored.
	tab, err = Parse(strings.NewReader(files["reordered.csv"]))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Layout != LayoutJuly2026 || tab.Len() != 2 {
		t.Fatalf("reordered: layout %q, %d values", tab.Layout, tab.Len())
	}
	if v := tab.Value(1); v.Area != "Norway" || v.ISO3 != "NOR" || v.Raw != "30" || v.Line != 4 {
		t.Errorf("reordered: second value %+v", v)
	}
}

// TestReaderHoldsTheHeader: the bytes NewReader reads before the archive is
// known reach the archive first, in a file larger than the read buffer.
func TestReaderHoldsTheHeader(t *testing.T) {
	in, err := os.ReadFile("testdata/carbon-2024-july.csv")
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := bytes.Cut(in, []byte("\n"))
	big := bytes.NewBuffer(append(append([]byte(nil), head...), '\n'))
	for big.Len() <= 3*readBuffer {
		// The same rows again, as other years.
		big.Write(bytes.ReplaceAll(body, []byte(",2024,"), fmt.Appendf(nil, ",%d,", 1900+big.Len()/len(body))))
	}
	rd, err := NewReader(bytes.NewReader(big.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if rd.Layout() != LayoutJuly2026 || rd.Header()[16] != ColIntensity {
		t.Fatalf("layout %q, header %q", rd.Layout(), rd.Header())
	}
	var a bytes.Buffer
	tab, n, err := rd.Stream(&a)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(big.Len()) || !bytes.Equal(a.Bytes(), big.Bytes()) {
		t.Errorf("archived %d bytes (%d counted) of %d; equal: %v", a.Len(), n, big.Len(), bytes.Equal(a.Bytes(), big.Bytes()))
	}
	if tab.Len() == 0 {
		t.Error("no values read")
	}
}

// TestLookupRenamed: an area Ember renamed in July 2026 is found by its ISO
// 3 code, its current name and its earlier one, in grids built from either
// layout.
func TestLookupRenamed(t *testing.T) {
	for _, tc := range []struct{ file, name string }{
		{"testdata/renames-july.csv", "Türkiye"},
		{"testdata/renames-long.csv", "Turkey"},
	} {
		g, _ := build(t, parseFile(t, tc.file), 2024)
		for _, q := range []string{"TUR", "tur", "Turkey", "Türkiye", "türkiye", " TURKEY "} {
			if a, err := pricing.Lookup(g, q); err != nil || a.Name != tc.name || a.ISO3 != "TUR" {
				t.Errorf("%s: Lookup(%q) = %q (%v), want %q", tc.file, q, a.Name, err, tc.name)
			}
		}
		for q, iso3 := range map[string]string{"Vietnam": "VNM", "viet nam": "VNM", "Taiwan": "TWN", "Philippines": "PHL", "bosnia and herzegovina": "BIH"} {
			if a, err := pricing.Lookup(g, q); err != nil || a.ISO3 != iso3 {
				t.Errorf("%s: Lookup(%q) = %+v (%v), want %s", tc.file, q, a, err, iso3)
			}
		}
	}
	g, _ := build(t, parseFile(t, "testdata/renames-july.csv"), 2024)
	if _, err := pricing.Lookup(g, "Turky"); err == nil || !strings.Contains(err.Error(), `nearest: "Türkiye"`) {
		t.Errorf("a mistyped earlier name: error %v, want the current name suggested", err)
	}
}
