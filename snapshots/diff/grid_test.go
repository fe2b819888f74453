package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TestGridChangeKeys: areas are matched by ISO 3 code, regions by name, and
// a code listed twice on one side by name too, so no area is lost.
func TestGridChangeKeys(t *testing.T) {
	snap := func(areas ...format.Area) *store.Release {
		return &store.Release{Manifest: &format.Manifest{}, Grid: &format.Grid{Year: 2024, Areas: areas}}
	}
	a := func(name, iso3 string, v float64) format.Area {
		return format.Area{Name: name, ISO3: iso3, Year: 2024, GCO2ePerKWh: format.Float(v)}
	}
	c := gridChange(
		snap(a("Turkey", "TUR", 469.7), a("World", "", 473), a("Kosovo", "XKX", 750), a("Kosova", "XKX", 751)),
		snap(a("Türkiye", "TUR", 469.7), a("World", "", 474), a("Kosovo", "XKX", 750), a("Asia", "", 560)))
	if diff := cmp.Diff([]GridRename{{ISO3: "TUR", Old: "Turkey", New: "Türkiye"}}, c.Renamed); diff != "" {
		t.Errorf("renamed (-want +got):\n%s", diff)
	}
	var added, removed, changed []string
	for _, x := range c.Added {
		added = append(added, x.Name)
	}
	for _, x := range c.Removed {
		removed = append(removed, x.Name)
	}
	for _, x := range c.Changed {
		changed = append(changed, x.Name)
	}
	if diff := cmp.Diff([][]string{{"Asia"}, {"Kosova"}, {"World"}}, [][]string{added, removed, changed}); diff != "" {
		t.Errorf("added, removed, changed (-want +got):\n%s", diff)
	}
}
