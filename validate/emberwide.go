package validate

// Ember's yearly CSV in the layout Ember has published since July 2026
// (release_generation_yearly_global.csv), as the specification describes
// it, independently of transform/grid: one row per area, year and
// electricity source, the metrics as columns; an area's intensity is
// "Emissions intensity (gCO2e/kWh)" on its "Total generation" row, and
// every other row is left alone. The header tells the layout
// (gridLayoutOf); gridReadCSV reads either, and the manifest's entry of the
// archived file must say what the header told (gridLayoutCheck).

import (
	"fmt"
	"reflect"
	"strings"
)

// The July 2026 layout as the manifest names it and the snapshot archives it.
const (
	gridWideLayout = "july-2026"
	gridWideName   = "ember/release_generation_yearly_global.csv"

	gridColSource    = "Electricity source"
	gridColIntensity = "Emissions intensity (gCO2e/kWh)"
	gridTotal        = "Total generation"
)

// gridWideColumns are the columns the July 2026 layout needs.
var gridWideColumns = []string{gridColArea, gridColISO3, gridColYear, gridColAreaType, gridColSource, gridColIntensity}

// gridWideAreaTypes are the area types of a Total generation row.
var gridWideAreaTypes = map[string]bool{"Country or economy": true, "Region": true}

// gridLayout is what the header of the archived CSV told.
type gridLayout struct {
	name   string   // gridWideLayout, or "" for the long layout
	header []string // the July 2026 layout's header; nil for the long one
}

// gridEmberSource is the manifest's entry of Ember's CSV, under the name
// of either layout, or nil.
func gridEmberSource(s *Snap) *ManifestSource {
	if src := s.Source(gridWideName); src != nil {
		return src
	}
	return s.Source(gridEmberName)
}

// gridLayoutOf tells the layout of a header by the columns only one layout
// has, Electricity source and the intensity column for the July 2026 one,
// Category, Variable, Unit and Value for the long one: the long layout's
// when the header holds a larger share of the long layout's own columns
// than of the July 2026 layout's, else the July 2026 one's (the current
// layout, whose missing columns are then named).
func gridLayoutOf(head []string) gridLayout {
	wide, long := 0, 0
	for i, c := range head {
		if i == 0 {
			c = strings.TrimPrefix(c, "\ufeff")
		}
		switch c {
		case gridColSource, gridColIntensity:
			wide++
		case gridColCategory, gridColVariable, gridColUnit, gridColValue:
			long++
		}
	}
	if long*2 > wide*4 { // long/4 > wide/2
		return gridLayout{}
	}
	return gridLayout{name: gridWideLayout, header: head}
}

// wide reports whether the layout is the July 2026 one.
func (l gridLayout) wide() bool { return l.name == gridWideLayout }

// gridLayoutCheck compares the manifest's entry of Ember's CSV with what
// the archived file's header told: the name of its layout, and for the
// July 2026 layout its layout and header fields, which the long layout's
// entry has not.
func gridLayoutCheck(src *ManifestSource, lay gridLayout, where string) []Problem {
	var probs []Problem
	mp := func(field, format string, a ...any) {
		probs = append(probs, Problem{File: ManifestPath, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	wantName := gridEmberName
	if lay.name == gridWideLayout {
		wantName = gridWideName
	}
	if src.Name != wantName {
		mp("name", "is %q, but the archived file's header is that of %s", src.Name, wantName)
	}
	if src.Layout != lay.name {
		if lay.name == "" {
			mp("layout", "is %q, but the archived file is in Ember's long layout, which records none", src.Layout)
		} else {
			mp("layout", "is %q, but the archived file's header is that of the %s layout", src.Layout, lay.name)
		}
	}
	if lay.name != "" && !reflect.DeepEqual(src.Header, lay.header) {
		mp("header", "is %q, but the archived file's header is %q", src.Header, lay.header)
	}
	if lay.name == "" && src.Header != nil {
		mp("header", "is set, but the archived file is in Ember's long layout, which records none")
	}
	return probs
}
