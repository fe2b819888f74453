package grid

import (
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/pricing"
)

// TestSampleEitherLayout: the sample's file in Ember's July 2026 layout
// (ember-wide's conversion of the 2023 and 2024 rows of the sample's long
// file; testdata/README.md at the repository's root) is read as that layout
// and gives, with 2023 or 2024 as the reference year, every area the long
// file gives a value of that year, with the same value and area type (the
// renamed areas under their new names, which their earlier names find).
func TestSampleEitherLayout(t *testing.T) {
	long := parseFile(t, sample.Ember())
	july := parseFile(t, sample.EmberWide())
	if long.Layout != LayoutLong || july.Layout != LayoutJuly2026 {
		t.Fatalf("layouts %q and %q, want %q and %q", long.Layout, july.Layout, LayoutLong, LayoutJuly2026)
	}
	// Regions have no ISO 3 code, and Ember renamed none.
	key := func(a format.Area) string {
		if a.ISO3 != "" {
			return a.ISO3
		}
		return "region " + a.Name
	}
	for _, year := range []int{2023, 2024} {
		gl, _ := build(t, long, year)
		gj, _ := build(t, july, year)
		want := map[string]format.Area{}
		for _, a := range gl.Areas {
			if !a.Fallback {
				want[key(a)] = a
			}
		}
		got := 0
		for _, a := range gj.Areas {
			if a.Fallback {
				continue
			}
			got++
			w, ok := want[key(a)]
			switch {
			case !ok:
				t.Errorf("%d: %s (%s) has a value in the July layout only", year, a.Name, key(a))
			case a.GCO2ePerKWh != w.GCO2ePerKWh || a.AreaType != w.AreaType:
				t.Errorf("%d: %s is %v (%s) in the July layout, %v (%s) in the long one", year, a.Name, a.GCO2ePerKWh, a.AreaType, w.GCO2ePerKWh, w.AreaType)
			case a.Name != w.Name:
				// A rename: the earlier name finds the area under its new one.
				if found, err := pricing.Lookup(gj, w.Name); err != nil || found.Name != a.Name {
					t.Errorf("%d: %s is %q in the July layout, %q in the long one, which finds %q (%v)", year, key(a), a.Name, w.Name, found.Name, err)
				}
			}
		}
		if got != len(want) || got < 90 {
			t.Errorf("%d: %d areas with a value of the year in the July layout, %d in the long one", year, got, len(want))
		}
	}
	// Renamed areas are among them, under their new names.
	g, _ := build(t, july, 2024)
	for _, q := range []string{"Türkiye", "Viet Nam", "Turkey"} {
		if a, err := pricing.Lookup(g, q); err != nil || a.Fallback {
			t.Errorf("July layout, 2024: %q is %+v (%v)", q, a, err)
		}
	}
}
