package grid

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Layout names the layout of Ember's yearly CSV, which the header tells.
type Layout string

// The layouts the stage reads.
const (
	// LayoutJuly2026 is the layout Ember has published since its "Data
	// download format update (July 2026)": release_generation_yearly_global.csv,
	// one row per area, year and electricity source, the metrics as
	// columns. An area's intensity is ColIntensity on its SourceTotal row.
	LayoutJuly2026 Layout = "july-2026"
	// LayoutLong is the long layout of yearly_full_release_long_format.csv,
	// one row per area, year and variable (Category, Variable, Unit,
	// Value), which Ember published until then and every earlier snapshot
	// archives.
	LayoutLong Layout = "long"
)

// Columns of the July 2026 layout the stage reads besides ColArea, ColISO3,
// ColYear and ColAreaType.
const (
	ColSource    = "Electricity source"
	ColIntensity = "Emissions intensity (gCO2e/kWh)"
)

// SourceTotal is the Electricity source of the rows whose intensity is the
// area's: every other source's row carries that source's own intensity
// (coal near 1,000 g/kWh, solar near 40), or none (Demand, Net imports),
// and is never read.
const SourceTotal = "Total generation"

// julyAreaTypes are the area types the July 2026 layout may give a
// SourceTotal row; any other is an error.
var julyAreaTypes = []string{AreaTypeCountry, AreaTypeRegion}

// longAreaTypes are the area types the long layout may give an intensity
// row; any other is an error.
var longAreaTypes = []string{AreaTypeCountry, AreaTypeCountryOld, AreaTypeRegion}

// julyColumns are the columns the July 2026 layout needs; any others are
// ignored, wherever they stand.
var julyColumns = []string{ColArea, ColISO3, ColYear, ColAreaType, ColSource, ColIntensity}

// maxSourcesNamed bounds the Electricity source values a file without any
// SourceTotal row is named by.
const maxSourcesNamed = 32

// columns holds the index of each column the stage reads.
type columns struct {
	layout                     Layout
	header                     []string
	area, iso3, year, areaType int
	// The long layout's.
	category, variable, unit int
	// source is the July 2026 layout's ColSource.
	source int
	// value is the column of the intensity: ColValue, or ColIntensity.
	value               int
	iso3Name, valueName string
	areaTypes           []string
}

// detect tells the layout of a header by the columns only one layout has:
// the long one when it has a larger share of the long layout's (Category,
// Variable, Unit, Value) than of the July 2026 layout's (ColSource,
// ColIntensity), else the July 2026 one, the default.
func detect(idx map[string]int) Layout {
	long, july := 0, 0
	for _, c := range []string{ColCategory, ColVariable, ColUnit, ColValue} {
		if _, ok := idx[c]; ok {
			long++
		}
	}
	for _, c := range []string{ColSource, ColIntensity} {
		if _, ok := idx[c]; ok {
			july++
		}
	}
	if long*2 > july*4 {
		return LayoutLong
	}
	return LayoutJuly2026
}

func readHeader(sc *csvScanner) (columns, error) {
	idx := make(map[string]int, sc.numFields())
	header := make([]string, sc.numFields())
	for i := range sc.numFields() {
		name := string(sc.field(i))
		if _, dup := idx[name]; dup {
			return columns{}, fmt.Errorf("ember header: column %q appears twice", name)
		}
		idx[name] = i
		header[i] = name
	}
	c := columns{layout: detect(idx), header: header}
	if c.layout == LayoutJuly2026 {
		c.iso3Name, c.valueName, c.areaTypes = ColISO3, ColIntensity, julyAreaTypes
		for _, col := range []struct {
			name string
			dst  *int
		}{
			{ColArea, &c.area}, {ColISO3, &c.iso3}, {ColYear, &c.year}, {ColAreaType, &c.areaType},
			{ColSource, &c.source}, {ColIntensity, &c.value},
		} {
			i, ok := idx[col.name]
			if !ok {
				return columns{}, fmt.Errorf("ember header: no column %q (Ember's July 2026 layout needs %s)", col.name, quoted(julyColumns))
			}
			*col.dst = i
		}
		return c, nil
	}
	c.valueName, c.areaTypes = ColValue, longAreaTypes
	for _, col := range []struct {
		name string
		dst  *int
	}{
		{ColArea, &c.area}, {ColYear, &c.year}, {ColAreaType, &c.areaType},
		{ColCategory, &c.category}, {ColVariable, &c.variable}, {ColUnit, &c.unit}, {ColValue, &c.value},
	} {
		i, ok := idx[col.name]
		if !ok {
			return columns{}, fmt.Errorf("ember header: no column %q", col.name)
		}
		*col.dst = i
	}
	// Today's name first; a file carrying both is read by today's.
	c.iso3Name = ColISO3
	i, ok := idx[ColISO3]
	if !ok {
		c.iso3Name = ColISO3Old
		if i, ok = idx[ColISO3Old]; !ok {
			return columns{}, fmt.Errorf("ember header: no column %q (or %q)", ColISO3, ColISO3Old)
		}
	}
	c.iso3 = i
	return c, nil
}

// areaTypeOf returns the accepted area type that at spells, or "".
func (c *columns) areaTypeOf(at string) string {
	for _, t := range c.areaTypes {
		if at == t {
			return t
		}
	}
	return ""
}

// quoted lists names as Go-quoted strings, comma-separated.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// noRowsError is the error of a file without a single intensity row.
func (p *parser) noRowsError() error {
	if p.cols.layout == LayoutLong {
		return fmt.Errorf("ember: no rows with Category %q, Variable %q, Unit %q", Category, Variable, Unit)
	}
	if len(p.sources) == 0 {
		return fmt.Errorf("ember: no rows with %s %q: the file has no data rows", ColSource, SourceTotal)
	}
	seen := slices.Sorted(maps.Keys(p.sources))
	more := ""
	if len(seen) == maxSourcesNamed {
		more = ", ..."
	}
	return fmt.Errorf("ember: no rows with %s %q; the file's %s values are %s%s", ColSource, SourceTotal, ColSource, quoted(seen), more)
}
