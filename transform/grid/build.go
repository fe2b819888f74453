package grid

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leadgreen/greentokens/transform/jsonnum"
)

// FileName is the name of the file Build's Grid is published as.
const FileName = "grid.json"

//go:embed source.json
var configJSON []byte

// config is source.json: every fixed text of grid.json.
type config struct {
	Version string `json:"version"`
	Unit    string `json:"unit"`
	Source  struct {
		Name             string `json:"name"`
		Title            string `json:"title"`
		Licence          string `json:"licence"`
		ReleaseNotStated string `json:"release_not_stated"`
		Definition       string `json:"definition"`
	} `json:"source"`
}

var cfg = mustConfig()

func mustConfig() config {
	var c config
	d := json.NewDecoder(bytes.NewReader(configJSON))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		panic("grid: source.json: " + err.Error())
	}
	return c
}

// SourceMeta is what Build needs to know about the CSV and the snapshot that
// the CSV itself does not say.
type SourceMeta struct {
	// URL the CSV was fetched from.
	URL string
	// Retrieved is the retrieval date, YYYY-MM-DD.
	Retrieved string
	// Release names Ember's release ("September 2026"). The CSV does not
	// carry it; "" is written as source.json's release_not_stated ("not stated").
	Release string
	// DataVersion is the snapshot's data version, YYYY-MM-DD.
	DataVersion string
}

// Grid is grid.json. Marshal writes its keys in the order of the fields.
type Grid struct {
	Version     string `json:"version"`      // format version, "1"
	DataVersion string `json:"data_version"` // the snapshot's data version
	// Year is the reference year: every area listed has a value for it.
	Year int `json:"year"`
	// YearPinned is false when Year is the latest year with a World value,
	// true when the build was told the year.
	YearPinned bool   `json:"year_pinned"`
	Unit       string `json:"unit"` // "g CO2e per kWh"
	Source     Source `json:"source"`
	// Areas holds every area with a value for Year, sorted by name (byte
	// order of the UTF-8 names, which are unique).
	Areas []Area `json:"areas"`
}

// Source is grid.json's source block.
type Source struct {
	Name       string `json:"name"`    // "Ember"
	Title      string `json:"title"`   // "Yearly electricity data"
	URL        string `json:"url"`     // where the CSV was fetched
	Release    string `json:"release"` // Ember's release name, or "not stated"
	Year       int    `json:"year"`    // the year of the figures, Grid.Year
	Retrieved  string `json:"retrieved"`
	Licence    string `json:"licence"`    // "CC BY 4.0"
	Definition string `json:"definition"` // what the figure is
}

// Area is one area's carbon intensity.
type Area struct {
	Name     string `json:"name"`      // Ember's Area
	ISO3     string `json:"iso3"`      // ISO 3166-1 alpha-3; "" for regions
	AreaType string `json:"area_type"` // as published: "Country or economy", "Country" or "Region"
	Year     int    `json:"year"`
	// GCO2ePerKWh is the published value: the nearest float64 to the
	// decimal in the CSV, printed by jsonnum (shortest round-trip, ".0" when
	// integral): "572.86" prints 572.86, "670.80" 670.8, "30" 30.0.
	GCO2ePerKWh jsonnum.Float `json:"g_co2e_per_kwh"`
	// Line is the CSV line the value is on; it is not written.
	Line int `json:"-"`
}

// Summary counts what Build did, for manifest.json. Its fields are those of
// snapshots.GridSummary, so snapshots.GridSummary(s) converts it.
type Summary struct {
	Year             int `json:"year"`
	Areas            int `json:"areas"`              // areas listed
	AreasWithoutYear int `json:"areas_without_year"` // areas in the CSV with no value for Year
}

// Build makes grid.json for the reference year: year, or when year is 0 the
// latest year with a World value.
func Build(t *Table, year int, meta SourceMeta) (*Grid, Summary, error) {
	if t == nil || len(t.Values) == 0 {
		return nil, Summary{}, fmt.Errorf("grid: no intensity values")
	}
	if meta.URL == "" {
		return nil, Summary{}, fmt.Errorf("grid: no source URL")
	}
	for _, d := range []struct{ name, v string }{{"retrieval date", meta.Retrieved}, {"data version", meta.DataVersion}} {
		if _, err := time.Parse(time.DateOnly, d.v); err != nil {
			return nil, Summary{}, fmt.Errorf("grid: %s %q is not a date (YYYY-MM-DD)", d.name, d.v)
		}
	}
	pinned := year != 0
	if !pinned {
		for _, v := range t.Values {
			if v.Area == World && v.Year > year {
				year = v.Year
			}
		}
		if year == 0 {
			return nil, Summary{}, fmt.Errorf("grid: the CSV has no value for %s; pin a reference year", World)
		}
	}
	release := meta.Release
	if release == "" {
		release = cfg.Source.ReleaseNotStated
	}
	g := &Grid{
		Version:     cfg.Version,
		DataVersion: meta.DataVersion,
		Year:        year,
		YearPinned:  pinned,
		Unit:        cfg.Unit,
		Source: Source{
			Name:       cfg.Source.Name,
			Title:      cfg.Source.Title,
			URL:        meta.URL,
			Release:    release,
			Year:       year,
			Retrieved:  meta.Retrieved,
			Licence:    cfg.Source.Licence,
			Definition: cfg.Source.Definition,
		},
		Areas: []Area{},
	}
	areas := map[string]bool{} // every area in the CSV: has it a value for year?
	for _, v := range t.Values {
		if v.Year != year {
			if _, ok := areas[v.Area]; !ok {
				areas[v.Area] = false
			}
			continue
		}
		areas[v.Area] = true
		g.Areas = append(g.Areas, Area{
			Name: v.Area, ISO3: v.ISO3, AreaType: v.AreaType, Year: v.Year,
			GCO2ePerKWh: jsonnum.Float(v.GCO2PerKWh), Line: v.Line,
		})
	}
	if len(g.Areas) == 0 {
		return nil, Summary{}, fmt.Errorf("grid: the CSV has no value for %d", year)
	}
	// Parse refuses a second value for an area and year, so names are unique.
	slices.SortFunc(g.Areas, func(a, b Area) int { return strings.Compare(a.Name, b.Name) })
	s := Summary{Year: year, Areas: len(g.Areas), AreasWithoutYear: len(areas) - len(g.Areas)}
	return g, s, nil
}

// Marshal returns grid.json's bytes: keys in the order of Grid's fields,
// two-space indent, no HTML escaping, no trailing newline.
func Marshal(g *Grid) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(g); err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
