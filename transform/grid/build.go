package grid

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// SourceMeta is what Build needs to know about the CSV and the snapshot that
// the CSV itself does not say.
type SourceMeta struct {
	// URL the CSV was fetched from.
	URL string
	// Retrieved is the retrieval date, YYYY-MM-DD.
	Retrieved string
	// Release names Ember's release ("September 2026"). The CSV does not
	// carry it; "" is written as sourcetext's ReleaseNotStated ("not stated").
	Release string
	// DataVersion is the snapshot's data version, YYYY-MM-DD.
	DataVersion string
}

// The reference-year rule picks the reference year when none is pinned: the
// latest complete year, as sourcetext's Ember.YearRule words it for the
// manifest. Its completeness threshold: countries(Y) x completeDen >=
// countries(Y-1) x completeNum, in integers.
const completeNum, completeDen = 9, 10

// Build makes grid.json for the reference year: year, or when year is 0 the
// latest complete year (the reference-year rule). World must have a usable
// value for it.
// Every area with a usable value for the reference year is listed with it;
// every other area with a usable value for an earlier year is listed with
// its latest earlier one, marked as a fallback.
func Build(t *Table, year int, meta SourceMeta) (*format.Grid, format.GridSummary, error) {
	if t == nil || t.Len()+len(t.Excluded) == 0 {
		return nil, format.GridSummary{}, fmt.Errorf("grid: no intensity values")
	}
	if meta.URL == "" {
		return nil, format.GridSummary{}, fmt.Errorf("grid: no source URL")
	}
	for _, d := range []struct{ name, v string }{{"retrieval date", meta.Retrieved}, {"data version", meta.DataVersion}} {
		if _, err := time.Parse(time.DateOnly, d.v); err != nil {
			return nil, format.GridSummary{}, fmt.Errorf("grid: %s %q is not a date (YYYY-MM-DD)", d.name, d.v)
		}
	}
	all, err := sourcetext.Load()
	if err != nil {
		return nil, format.GridSummary{}, err
	}
	text := all.Ember
	chosen, candidates := referenceYear(t)
	pinned := year != 0
	if !pinned {
		if chosen == 0 {
			return nil, format.GridSummary{}, fmt.Errorf("grid: no year is complete (%s); pin a reference year", text.YearRule)
		}
		year = chosen
	}
	release := meta.Release
	if release == "" {
		release = text.ReleaseNotStated
	}
	g := &format.Grid{
		Version:     format.FormatVersion,
		DataVersion: meta.DataVersion,
		Year:        year,
		YearPinned:  pinned,
		Unit:        text.Unit,
		Source: format.GridSource{
			Name:       text.Name,
			Title:      text.Title,
			URL:        meta.URL,
			Release:    release,
			Year:       year,
			Retrieved:  meta.Retrieved,
			Licence:    text.Licence,
			Definition: text.Definition,
		},
		Areas: []format.Area{},
	}
	// Each area's value for year, or its latest earlier one. Parse lists
	// one usable value at most per area and year.
	best := map[string]int{} // area -> index in t.rows
	names := map[string]bool{}
	for i, r := range t.rows {
		area := t.places[r.place].area
		names[area] = true
		if int(r.year) > year {
			continue
		}
		if j, ok := best[area]; !ok || r.year > t.rows[j].year {
			best[area] = i
		}
	}
	for _, x := range t.Excluded {
		names[x.Area] = true
	}
	if j, ok := best[format.World]; !ok || int(t.rows[j].year) != year {
		return nil, format.GridSummary{}, fmt.Errorf("grid: %s has no usable value for %d", format.World, year)
	}
	s := format.GridSummary{Year: year, YearRule: text.YearRule, YearPinned: pinned, YearCandidates: candidates, Exclusions: t.Excluded}
	for _, i := range best {
		v := t.Value(i)
		a := format.Area{
			Name: v.Area, ISO3: v.ISO3, AreaType: v.AreaType, Year: v.Year, Fallback: v.Year != year,
			GCO2ePerKWh: format.Float(v.GCO2PerKWh), Line: v.Line,
		}
		if a.Fallback {
			s.Fallbacks++
		}
		g.Areas = append(g.Areas, a)
	}
	slices.SortFunc(g.Areas, func(a, b format.Area) int { return strings.Compare(a.Name, b.Name) })
	s.Areas = len(g.Areas)
	s.AreasWithoutYear = len(names) - (len(g.Areas) - s.Fallbacks)
	if s.Exclusions == nil {
		s.Exclusions = []format.GridExclusion{}
	}
	return g, s, nil
}

// referenceYear applies the reference-year rule to t: it returns the latest complete year
// (0 when none is) and the years it examined, latest first.
func referenceYear(t *Table) (int, []format.YearCount) {
	countries := map[int]int{}
	world := map[int]bool{}
	latest, earliest := 0, 0
	for _, r := range t.rows {
		p, y := &t.places[r.place], int(r.year)
		switch p.areaType {
		case AreaTypeCountry, AreaTypeCountryOld:
			countries[y]++
		}
		if p.area == format.World {
			world[y] = true
		}
		if y > latest {
			latest = y
		}
		if earliest == 0 || y < earliest {
			earliest = y
		}
	}
	var seen []format.YearCount
	for y := latest; y >= earliest && latest > 0; y-- {
		c := format.YearCount{Year: y, World: world[y], Countries: countries[y], CountriesYearBefore: countries[y-1]}
		c.Complete = c.World && c.Countries*completeDen >= c.CountriesYearBefore*completeNum
		seen = append(seen, c)
		if c.Complete {
			return y, seen
		}
	}
	return 0, seen
}
