package validate

// Ember's yearly CSV in its July 2026 layout: one row per area, year and
// electricity source; an area's intensity is the Emissions intensity of
// its Total generation row. gridReadCSV reads either layout (gridLayoutOf).

import (
	"fmt"
	"reflect"
)

// The July 2026 layout, as the manifest names it and the snapshot archives it.
const (
	gridWideLayout   = "july-2026"
	gridWideName     = "ember/release_generation_yearly_global.csv"
	gridColSource    = "Electricity source"
	gridColIntensity = "Emissions intensity (gCO2e/kWh)"
	gridTotal        = "Total generation"
)

// gridWideAreaTypes are the area types of a Total generation row.
var gridWideAreaTypes = map[string]bool{"Country or economy": true, "Region": true}

// gridLayout is what the header of the archived CSV told.
type gridLayout struct {
	name   string   // gridWideLayout, or "" for the long layout
	header []string // the July 2026 layout's header; nil for the long one
}

func (l gridLayout) wide() bool { return l.name == gridWideLayout }

// gridLayoutOf tells the layout by the columns only one layout has: the
// long one when the header holds a larger share of its own (Category,
// Variable, Unit, Value) than of the July 2026 one's (Electricity source,
// the intensity), else the July 2026 one, whose missing columns are named.
func gridLayoutOf(head []string) gridLayout {
	wide, long := 0, 0
	for _, c := range head {
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

// gridEmberSource is the manifest's entry of Ember's CSV, under the name of
// either layout, or nil.
func gridEmberSource(s *snap) *ManifestSource {
	if src := s.source(gridWideName); src != nil {
		return src
	}
	return s.source(gridEmberName)
}

// gridLayoutCheck: the manifest's entry of Ember's CSV says what the
// archived file's header told, its layout's name and, for the July 2026
// layout only, the layout and the header.
func gridLayoutCheck(src *ManifestSource, lay gridLayout, where string) []Problem {
	want := ManifestSource{Name: gridEmberName}
	if lay.wide() {
		want = ManifestSource{Name: gridWideName, Layout: gridWideLayout, Header: lay.header}
	}
	var probs []Problem
	for _, f := range []struct {
		field     string
		got, want any
	}{{"name", src.Name, want.Name}, {"layout", src.Layout, want.Layout}, {"header", src.Header, want.Header}} {
		if !reflect.DeepEqual(f.got, f.want) {
			probs = append(probs, Problem{File: ManifestPath, Where: where, Field: f.field,
				Msg: fmt.Sprintf("is %q, but the archived file's header makes it %q", f.got, f.want)})
		}
	}
	return probs
}
