package validate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// vtWideHeader is the header of Ember's CSV in its July 2026 layout.
const vtWideHeader = "Area,ISO 3 code,Year,Area type,Electricity source,Is aggregated source,Generation (TWh),Generation YoY change (TWh),Generation YoY change (%),Share of generation (%),Share of generation YoY change (% points),Capacity (GW),Emissions (MtCO2e),Emissions YoY change (MtCO2e),Emissions YoY change (%),Share of emissions (%),Emissions intensity (gCO2e/kWh),Continent,Ember region,EU member,OECD member,G20 member,G7 member,ASEAN member"

// vtWideRow is a row of that layout.
func vtWideRow(area, iso3, year, areaType, source, intensity string) string {
	return strings.Join([]string{area, iso3, year, areaType, source, "True", "10", "0", "0", "100", "0", "", "1", "0", "0", "50", intensity, "Europe", "", "False", "False", "False", "False", "False"}, ",")
}

func vtWide(rows ...string) string {
	return strings.Join(append([]string{vtWideHeader}, rows...), "\n") + "\n"
}

// TestGridReadWide: the checker's own reader of the July 2026 layout keeps
// the Total generation rows only, records a blank intensity as an
// exclusion, and names what makes a file unreadable.
func TestGridReadWide(t *testing.T) {
	in := vtWide(
		vtWideRow("Germany", "DEU", "2024", "Country or economy", "Coal", "1012.5"),
		vtWideRow("Germany", "DEU", "2024", "Country or economy", "Demand", ""),
		vtWideRow("Germany", "DEU", "2024", "Country or economy", "Total generation", ""),
		vtWideRow("Türkiye", "TUR", "2024", "Country or economy", "Total generation", "469.70"),
		vtWideRow("World", "", "2024", "Region", "Solar", "40.2"),
		vtWideRow("World", "", "2024", "Region", "Total generation", "473.01"),
	)
	rows, probs, lay := gridReadCSV(strings.NewReader("\ufeff"+in), "ember.csv")
	if len(probs) != 0 {
		t.Fatalf("problems %v", probs)
	}
	if lay.name != gridWideLayout || len(lay.header) != 24 || lay.header[0] != "Area" {
		t.Errorf("layout %+v", lay)
	}
	type got struct {
		Area, ISO3, Raw, Excluded string
		Line                      int
	}
	var g []got
	for _, r := range rows {
		g = append(g, got{r.area, r.iso3, r.raw, r.excluded, r.line})
	}
	want := []got{{"Germany", "DEU", "", "blank value", 4}, {"Türkiye", "TUR", "469.70", "", 5}, {"World", "", "473.01", "", 7}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}

	// The long layout still goes to its own reader.
	long := "Area,ISO 3 code,Year,Area type,Category,Subcategory,Variable,Unit,Value\nWorld,,2024,Region,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,473.01\n"
	if rows, probs, lay := gridReadCSV(strings.NewReader(long), "ember.csv"); len(rows) != 1 || len(probs) != 0 || lay.name != "" || lay.header != nil {
		t.Errorf("long layout: %d rows, problems %v, layout %+v", len(rows), probs, lay)
	}

	for _, tc := range []struct{ name, in, want string }{
		{"missing column", strings.Replace(vtWide(vtWideRow("World", "", "2024", "Region", "Total generation", "473.01")), ",Emissions intensity (gCO2e/kWh)", ",Intensity", 1),
			`ember.csv: header: has no column "Emissions intensity (gCO2e/kWh)"`},
		{"no Total generation rows", vtWide(vtWideRow("World", "", "2024", "Region", "Solar", "40.2"), vtWideRow("World", "", "2024", "Region", "Coal", "998")),
			`ember.csv: has no rows with Electricity source "Total generation" (its sources: "Coal", "Solar")`},
		{"unknown area type", vtWide(vtWideRow("World", "", "2024", "Economic union", "Total generation", "473.01")),
			`ember.csv: line 2: Area type "Economic union" is none of the known ones`},
		{"not a number", vtWide(vtWideRow("World", "", "2024", "Region", "Total generation", "n/a")),
			`ember.csv: line 2: Emissions intensity (gCO2e/kWh) "n/a" is not a plain decimal`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs, _ := gridReadCSV(strings.NewReader(tc.in), "ember.csv")
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			if !slicesContain(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}

func slicesContain(ss []string, s string) bool {
	for _, x := range ss {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// TestGridLayoutCheck: the manifest's entry of Ember's CSV must say what
// the archived file's header tells: the July 2026 layout's name, layout and
// header, or the long layout's name and neither field.
func TestGridLayoutCheck(t *testing.T) {
	wide := gridLayout{name: gridWideLayout, header: []string{"Area", "ISO 3 code"}}
	ok := &ManifestSource{Name: gridWideName, Layout: gridWideLayout, Header: []string{"Area", "ISO 3 code"}}
	if probs := gridLayoutCheck(ok, wide, "sources[0]"); len(probs) != 0 {
		t.Errorf("a right entry: %v", probs)
	}
	if probs := gridLayoutCheck(&ManifestSource{Name: gridEmberName}, gridLayout{}, "sources[0]"); len(probs) != 0 {
		t.Errorf("a right long entry: %v", probs)
	}
	for _, tc := range []struct {
		name  string
		src   ManifestSource
		lay   gridLayout
		field string
	}{
		{"July file without layout", ManifestSource{Name: gridWideName, Header: []string{"Area", "ISO 3 code"}}, wide, "layout"},
		{"July file under the long name", ManifestSource{Name: gridEmberName, Layout: gridWideLayout, Header: []string{"Area", "ISO 3 code"}}, wide, "name"},
		{"another header", ManifestSource{Name: gridWideName, Layout: gridWideLayout, Header: []string{"Area"}}, wide, "header"},
		{"long file with a layout", ManifestSource{Name: gridEmberName, Layout: gridWideLayout}, gridLayout{}, "layout"},
		{"long file with a header", ManifestSource{Name: gridEmberName, Header: []string{"Area"}}, gridLayout{}, "header"},
	} {
		probs := gridLayoutCheck(&tc.src, tc.lay, "sources[0]")
		if len(probs) != 1 || probs[0].Field != tc.field || probs[0].File != ManifestPath {
			t.Errorf("%s: problems %v, want one on %s", tc.name, probs, tc.field)
		}
	}
}

// TestGridReadWideHostile: the July 2026 layout's hostile fixtures of the
// build (snapshots/testdata/hostile/ember-july-*.txtar), read by this
// package's own reader: what stops the build is a problem here too, and the
// fixture that builds reads without one.
func TestGridReadWideHostile(t *testing.T) {
	for name, want := range map[string]string{
		"ember-july-blemishes.txtar":      "",
		"ember-july-no-total.txtar":       `has no rows with Electricity source "Total generation" (its sources: "Coal", "Solar")`,
		"ember-july-missing-column.txtar": `has no column "Emissions intensity (gCO2e/kWh)"`,
		"ember-july-area-type.txtar":      `line 3: Area type "Economic union" is none of the known ones`,
	} {
		files, _ := vtHostile(t, name)
		rows, probs, lay := gridReadCSV(bytes.NewReader(files["ember.csv"]), "ember.csv")
		var got []string
		for _, p := range probs {
			got = append(got, p.String())
		}
		switch {
		case lay.name != gridWideLayout:
			t.Errorf("%s: read as the long layout", name)
		case want == "" && (len(probs) > 0 || len(rows) != 5 || rows[1].excluded != "blank value"):
			t.Errorf("%s: %d rows, problems %q; want the 5 Total generation rows, Germany's 2024 excluded, no problem", name, len(rows), got)
		case want != "" && !slicesContain(got, want):
			t.Errorf("%s: problems %q, want %q", name, got, want)
		}
	}
}
