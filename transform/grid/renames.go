package grid

import (
	"github.com/leadgreen/greentokens/format"
	"slices"
	"strings"
)

// KnownNames are the names Ember has given an area over its releases, by
// ISO 3 code, for the areas it renamed in its July 2026 update (the names
// before, then after). Lookup finds an area by any of them, so that
// "Turkey" finds Türkiye in a grid built from the July 2026 layout, and
// "Türkiye" finds Turkey in one built from an earlier release. Areas are
// keyed by their ISO 3 code, which the update left as it was.
var KnownNames = map[string][]string{
	"BIH": {"Bosnia and Herzegovina", "Bosnia Herzegovina"},
	"CZE": {"Czech Republic", "Czechia"},
	"PHL": {"Philippines", "The Philippines"},
	"TUR": {"Turkey", "Türkiye"},
	"TWN": {"Taiwan", "Taiwan (China)"},
	"VNM": {"Vietnam", "Viet Nam"},
}

// spellings are the names an area is found by: its name, its ISO 3 code
// and the other names Ember has given it (KnownNames).
func spellings(a format.Area) []string {
	s := []string{a.Name, a.ISO3}
	if a.ISO3 != "" {
		s = append(s, KnownNames[a.ISO3]...)
	}
	return s
}

// named reports whether q is a's name, ISO 3 code or another name Ember has
// given it, case aside.
func named(a format.Area, q string) bool {
	if strings.EqualFold(a.Name, q) || a.ISO3 != "" && strings.EqualFold(a.ISO3, q) {
		return true
	}
	return slices.ContainsFunc(KnownNames[a.ISO3], func(n string) bool { return strings.EqualFold(n, q) })
}
