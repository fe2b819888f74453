package pricing

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/language"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
)

// emberAreas returns every area Ember's CSV at path names (its Area, ISO 3
// code and Area type columns), once each, as a grid of year lists them.
func emberAreas(t *testing.T, path string, year int) *format.Grid {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	g := &format.Grid{Year: year}
	seen := map[string]bool{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		a := format.Area{Name: rec[col["Area"]], ISO3: rec[col["ISO 3 code"]], AreaType: rec[col["Area type"]]}
		if !seen[a.Name] {
			seen[a.Name] = true
			g.Areas = append(g.Areas, a)
		}
	}
	return g
}

// id is how the tests name an area: its ISO 3 code, or a region's name.
func id(a format.Area) string {
	if a.ISO3 != "" {
		return a.ISO3
	}
	return a.Name
}

// TestEveryEmberArea: every area of the sample's Ember files, in the long
// layout and in the July 2026 one (with the names Ember gave areas then),
// is found by its name, its ISO 3 code and its ISO 3166-1 alpha-2 code
// where it has one, in any case.
func TestEveryEmberArea(t *testing.T) {
	for _, file := range []string{sample.Ember(), sample.EmberWide()} {
		g := emberAreas(t, file, 2024)
		codes, alpha2 := 0, 0
		for _, a := range g.Areas {
			queries := []string{a.Name, strings.ToUpper(a.Name), " " + a.Name + " "}
			if a.ISO3 != "" {
				codes++
				queries = append(queries, a.ISO3, strings.ToLower(a.ISO3))
				if r, err := language.ParseRegion(a.ISO3); err == nil && len(r.String()) == 2 && a.ISO3 != "XKX" {
					alpha2++
					queries = append(queries, r.String(), strings.ToLower(r.String()))
				}
			}
			for _, q := range queries {
				got, err := Lookup(g, q)
				if err != nil || got != a {
					t.Errorf("%s: Lookup(%q) = %q (%v), want %q (%s)", file, q, got.Name, err, a.Name, a.ISO3)
				}
			}
		}
		// The long file holds 213 countries and 13 regions; the July 2026
		// one, of 2023 and 2024 alone, 172 and 13.
		if len(g.Areas) < 180 || codes < 170 || alpha2 != codes {
			t.Errorf("%s: %d areas, %d with an ISO 3 code, %d of them with an alpha-2 code", file, len(g.Areas), codes, alpha2)
		}
	}
}

// TestAliases: codes, English names, Ember's earlier and later names and
// common names each find their area in the sample's grid.
func TestAliases(t *testing.T) {
	g := emberAreas(t, sample.Ember(), 2024)
	wide := emberAreas(t, sample.EmberWide(), 2024)
	for _, tc := range []struct{ q, want string }{
		// The United Kingdom: never Ukraine.
		{"UK", "GBR"}, {"uk", "GBR"}, {"U.K.", "GBR"}, {"the U.K.", "GBR"}, {"GB", "GBR"}, {"GBR", "GBR"}, {"826", "GBR"}, {"United Kingdom", "GBR"},
		{"Great Britain", "GBR"}, {"Britain", "GBR"}, {"United Kingdom of Great Britain and Northern Ireland", "GBR"},
		{"UKR", "UKR"}, {"UA", "UKR"}, {"Ukraine", "UKR"},
		// The United States, by its codes and Ember's names old and new.
		{"US", "USA"}, {"us", "USA"}, {"USA", "USA"}, {"840", "USA"}, {"U.S.", "USA"}, {"U.S.A.", "USA"}, {"u s", "USA"},
		{"United States", "USA"}, {"United States of America", "USA"}, {"united-states-of-america", "USA"},
		{"Türkiye", "TUR"}, {"Turkiye", "TUR"}, {"Turkey", "TUR"}, {"TR", "TUR"}, {"türkiye", "TUR"},
		{"Czechia", "CZE"}, {"Czech Republic", "CZE"}, {"CZ", "CZE"},
		{"Viet Nam", "VNM"}, {"Vietnam", "VNM"}, {"VN", "VNM"},
		{"South Korea", "KOR"}, {"Korea", "KOR"}, {"Republic of Korea", "KOR"}, {"Korea, Republic of", "KOR"}, {"KR", "KOR"},
		{"North Korea", "PRK"}, {"DPRK", "PRK"}, {"KP", "PRK"},
		{"Russia", "RUS"}, {"Russian Federation", "RUS"}, {"RU", "RUS"},
		{"Iran", "IRN"}, {"Islamic Republic of Iran", "IRN"}, {"IR", "IRN"},
		{"FR", "FRA"}, {"fra", "FRA"}, {"250", "FRA"}, {"DE", "DEU"}, {"276", "DEU"},
		{"Ivory Coast", "CIV"}, {"Côte d’Ivoire", "CIV"}, {"Burma", "MMR"}, {"Myanmar (Burma)", "MMR"},
		{"Swaziland", "SWZ"}, {"Macedonia", "MKD"}, {"Cabo Verde", "CPV"}, {"Timor-Leste", "TLS"},
		{"DR Congo", "COD"}, {"DRC", "COD"}, {"Congo - Kinshasa", "COD"}, {"Congo", "COG"}, {"Congo-Brazzaville", "COG"},
		{"Holland", "NLD"}, {"The Netherlands", "NLD"}, {"UAE", "ARE"}, {"Hong Kong SAR China", "HKG"}, {"Macau", "MAC"},
		{"St. Lucia", "LCA"}, {"St Vincent & the Grenadines", "VCT"}, {"Bosnia & Herzegovina", "BIH"},
		{"Bosnia Herzegovina", "BIH"}, {"Trinidad & Tobago", "TTO"}, {"São Tomé & Príncipe", "STP"}, {"Réunion", "REU"},
		{"U.S. Virgin Islands", "VIR"}, {"Palestinian Territories", "PSE"}, {"Taiwan (China)", "TWN"}, {"The Gambia", "GMB"},
		// Ember's regions, by name, other names and the codes of groups.
		{"EU", "EU"}, {"eu", "EU"}, {"E.U.", "EU"}, {"European Union", "EU"}, {"EU27", "EU"}, {"EU-27", "EU"},
		{"World", "World"}, {"001", "World"}, {"Global", "World"}, {"150", "Europe"}, {"002", "Africa"}, {"142", "Asia"},
		{"G-20", "G20"}, {"Group of Seven", "G7"}, {"Latin America & the Caribbean", "Latin America and Caribbean"},
		{"Association of Southeast Asian Nations", "ASEAN"}, {"Organisation for Economic Co-operation and Development", "OECD"},
	} {
		a, err := Lookup(g, tc.q)
		if err != nil || id(a) != tc.want {
			t.Errorf("Lookup(%q) = %q (%s), %v; want %s", tc.q, a.Name, a.ISO3, err, tc.want)
		}
		// In the July 2026 layout, under the names Ember gave areas then,
		// where the file has the area (it holds 2023 and 2024 alone).
		if !slices.ContainsFunc(wide.Areas, func(a format.Area) bool { return id(a) == tc.want }) {
			continue
		}
		if a, err := Lookup(wide, tc.q); err != nil || id(a) != tc.want {
			t.Errorf("July 2026 layout: Lookup(%q) = %q (%s), %v; want %s", tc.q, a.Name, a.ISO3, err, tc.want)
		}
	}
}

// TestLookupFailures: what is said when a grid has no area a name names.
// A code or a name of a place says which place the grid lacks, and never
// suggests another area (the grid below has Ukraine, Australia, Mauritius
// and Russia, the names one letter from UK and US); a name of no place
// gets the nearest names; a withdrawn code ("DD", East Germany) names no
// place, and is not Germany.
func TestLookupFailures(t *testing.T) {
	g := &format.Grid{Year: 2024}
	for _, a := range []struct{ name, iso3 string }{
		{"Australia", "AUS"}, {"Germany", "DEU"}, {"Hong Kong", "HKG"}, {"India", "IND"}, {"Mauritius", "MUS"},
		{"Norway", "NOR"}, {"Russia", "RUS"}, {"Saudi Arabia", "SAU"}, {"Serbia", "SRB"}, {"Ukraine", "UKR"}, {"World", ""},
	} {
		g.Areas = append(g.Areas, format.Area{Name: a.name, ISO3: a.iso3})
	}
	for _, tc := range []struct {
		q, want string
		near    []string
	}{
		{"UK", `grid "UK": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"uk", `grid "uk": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"U.K.", `grid "U.K.": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"U.K", `grid "U.K": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"U.X.", `grid "U.X.": no area of that name or code in the 2024 grid`, nil},
		{"GB", `grid "GB": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"Great Britain", `grid "Great Britain": no value for United Kingdom (GBR) in the 2024 grid`, nil},
		{"US", `grid "US": no value for United States (USA) in the 2024 grid`, nil},
		{"USA", `grid "USA": no value for United States (USA) in the 2024 grid`, nil},
		{"United States of America", `grid "United States of America": no value for United States (USA) in the 2024 grid`, nil},
		{"FR", `grid "FR": no value for France (FRA) in the 2024 grid`, nil},
		{"FRA", `grid "FRA": no value for France (FRA) in the 2024 grid`, nil},
		{"European Union", `grid "European Union": no value for EU in the 2024 grid`, nil},
		{"EU", `grid "EU": no value for EU in the 2024 grid`, nil},
		{"Turkiye", `grid "Turkiye": no value for Türkiye (TUR) in the 2024 grid`, nil},
		{"Kosovo", `grid "Kosovo": no value for Kosovo (XKX) in the 2024 grid`, nil},
		{"XK", `grid "XK": no value for Kosovo (XKX) in the 2024 grid`, nil},
		{"QO", `grid "QO": no value for Outlying Oceania (QO) in the 2024 grid`, nil},
		{"DD", `grid "DD": no area of that name or code in the 2024 grid`, nil},
		{"UKX", `grid "UKX": no area of that name or code in the 2024 grid`, nil},
		{"ZZ", `grid "ZZ": no area of that name or code in the 2024 grid`, nil},
		{"Germny", `grid "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`, []string{"Germany"}},
		{"Ukrain", `grid "Ukrain": no area of that name or code in the 2024 grid; nearest: "Ukraine"`, []string{"Ukraine"}},
		{"Norwegian", `grid "Norwegian": no area of that name or code in the 2024 grid`, nil},
		{"  ", `grid "": blank: an ISO 3166 code or an area's name is required`, nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			a, err := Lookup(g, tc.q)
			var ge *GridError
			if !errors.As(err, &ge) {
				t.Fatalf("Lookup(%q) = %+v, %v; want a *GridError", tc.q, a, err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Lookup(%q) (-want +got):\n%s", tc.q, diff)
			}
			if diff := cmp.Diff(tc.near, ge.Nearest); diff != "" {
				t.Errorf("Lookup(%q) nearest (-want +got):\n%s", tc.q, diff)
			}
			if ge.NotFound() != (strings.TrimSpace(tc.q) != "") {
				t.Errorf("Lookup(%q): NotFound %v", tc.q, ge.NotFound())
			}
		})
	}
	amb := &format.Grid{Year: 2024, Areas: []format.Area{{Name: "Germany", ISO3: "DEU"}, {Name: "Germany 1", ISO3: "DEU"}}}
	_, err := Lookup(amb, "deu")
	if want := `grid "deu": matches 2 areas of the 2024 grid: "Germany" (DEU), "Germany 1" (DEU)`; err == nil || err.Error() != want {
		t.Errorf("ambiguous: %v, want %s", err, want)
	}
	var ge *GridError
	if !errors.As(err, &ge) || ge.NotFound() {
		t.Errorf("ambiguous: %#v is not found", err)
	}
}

// TestGridErrorMessage: each surface names the parameter as it spells it.
func TestGridErrorMessage(t *testing.T) {
	g := &format.Grid{Year: 2024, Areas: []format.Area{{Name: "Germany", ISO3: "DEU"}}}
	_, err := Lookup(g, "Germny")
	var ge *GridError
	if !errors.As(err, &ge) {
		t.Fatal(err)
	}
	for param, want := range map[string]string{
		"grid":    `grid "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`,
		"GRID":    `GRID "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`,
		"grids":   `grids "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`,
		"--grids": `--grids "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`,
	} {
		if got := ge.Message(param); got != want {
			t.Errorf("Message(%q) = %q, want %q", param, got, want)
		}
	}
}

// TestPlacesUnique: no name of the tables, of ISO 3166's English names or
// of Ember's regions names two places; every code in the tables is a
// current one.
func TestPlacesUnique(t *testing.T) {
	m, err := buildPlaces()
	if err != nil {
		t.Fatal(err)
	}
	if len(m) < 300 {
		t.Errorf("%d names of places", len(m))
	}
	for iso3 := range countryNames {
		if _, ok := regionOf(iso3); !ok {
			t.Errorf("countryNames: %s is not a current ISO 3166 code", iso3)
		}
	}
	for iso3 := range emberRenames {
		if _, ok := regionOf(iso3); !ok {
			t.Errorf("emberRenames: %s is not a current ISO 3166 code", iso3)
		}
	}
}

func TestPlaceKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Côte d’Ivoire", "Cote d'Ivoire"},
		{"St. Vincent & Grenadines", "Saint Vincent and the Grenadines"},
		{"Türkiye", "Turkiye"},
		{"São Tomé & Príncipe", "Sao Tome and Principe"},
		{"The Gambia", "gambia"},
	} {
		if placeKey(tc.a) != placeKey(tc.b) || placeKey(tc.a) == "" {
			t.Errorf("placeKey(%q) = %q, placeKey(%q) = %q", tc.a, placeKey(tc.a), tc.b, placeKey(tc.b))
		}
	}
	for _, tc := range []struct{ a, b string }{{"Niger", "Nigeria"}, {"Guinea", "Equatorial Guinea"}, {"Dominica", "Dominican Republic"}, {"Sandwich", "Swich"}} {
		if placeKey(tc.a) == placeKey(tc.b) {
			t.Errorf("placeKey(%q) = placeKey(%q) = %q", tc.a, tc.b, placeKey(tc.a))
		}
	}
}
