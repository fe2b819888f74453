package pricing

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// maxSuggestions is how many nearest names an unknown area's error offers.
const maxSuggestions = 3

// Lookup finds an area of g by its ISO 3 code, its name or another name
// Ember has given it (KnownNames: "Turkey" finds Türkiye), ignoring case
// and surrounding spaces, and failing that spaces and punctuation too. An
// unknown query is an error naming the nearest names by edit distance; a
// query matching more than one area is an error listing them.
func Lookup(g *format.Grid, query string) (format.Area, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return format.Area{}, fmt.Errorf("grid: empty area query")
	}
	var found []format.Area
	for _, a := range g.Areas {
		if named(a, q) {
			found = append(found, a)
		}
	}
	var all [][]string
	if len(found) == 0 {
		// Case, spaces and punctuation aside: "saudi-arabia", "hong kong".
		all = make([][]string, len(g.Areas))
		for i, a := range g.Areas {
			all[i] = spellings(a)
		}
		for _, i := range MatchNames(q, all) {
			found = append(found, g.Areas[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if near := Nearest(q, all, maxSuggestions); len(near) > 0 {
			return format.Area{}, fmt.Errorf("grid: no area %q in the %d grid; nearest: %s", q, g.Year, strings.Join(near, ", "))
		}
		return format.Area{}, fmt.Errorf("grid: no area %q in the %d grid", q, g.Year)
	}
	names := make([]string, len(found))
	for i, a := range found {
		names[i] = fmt.Sprintf("%q (%s)", a.Name, a.ISO3)
	}
	return format.Area{}, fmt.Errorf("grid: %q matches %d areas: %s", q, len(found), strings.Join(names, ", "))
}

// knownNames are the names Ember has given an area over its releases, by
// ISO 3 code, for the areas it renamed in its July 2026 update (the names
// before, then after). Lookup finds an area by any of them, so that
// "Turkey" finds Türkiye in a grid built from the July 2026 layout, and
// "Türkiye" finds Turkey in one built from an earlier release. Areas are
// keyed by their ISO 3 code, which the update left as it was.
var knownNames = map[string][]string{
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
		s = append(s, knownNames[a.ISO3]...)
	}
	return s
}

// named reports whether q is a's name, ISO 3 code or another name Ember has
// given it, case aside.
func named(a format.Area, q string) bool {
	if strings.EqualFold(a.Name, q) || a.ISO3 != "" && strings.EqualFold(a.ISO3, q) {
		return true
	}
	return slices.ContainsFunc(knownNames[a.ISO3], func(n string) bool { return strings.EqualFold(n, q) })
}

// KnownNames returns the names Ember has given the area of the ISO 3 code
// over its releases, the names before its July 2026 update, then after
// (nil for an area it did not rename); the slice is the caller's own.
// Lookup finds an area by any of them.
func KnownNames(iso3 string) []string { return slices.Clone(knownNames[iso3]) }
