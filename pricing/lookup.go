package pricing

import (
	"fmt"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// maxSuggestions is how many nearest names an unknown area's error offers.
const maxSuggestions = 3

// Lookup finds the area of g a person names, the one resolver of grid
// names on every surface (the command line, the API, the MCP server, the
// pages' and the site's display grids). In order:
//
//  1. an area's name in g or its ISO 3 code, case and surrounding spaces
//     aside;
//  2. a code (two or three letters, or three digits, punctuation and
//     spaces aside): an ISO 3166-1 alpha-2 or alpha-3 code or a UN M.49
//     number of a country or economy ("FR", "FRA", "250"; "UK" and "U.K."
//     for the United Kingdom), or the code of a group of countries, the
//     region of its English name ("EU", "150");
//  3. a name, accents, case, spaces and punctuation aside: an area's name
//     in g, a name Ember has given it before ("Turkey" finds Türkiye), its
//     English name in ISO 3166 or a common one ("Great Britain", "Korea",
//     "European Union").
//
// A code or a name of a place that g has no value for is an error saying
// so ("no value for France (FRA) in the 2024 grid"), never a suggestion of
// another area; so is a code of no place. Only a name that is none of
// these gets suggestions, the nearest names of g by edit distance. The
// error is a *GridError.
func Lookup(g *format.Grid, query string) (format.Area, error) {
	q := strings.TrimSpace(query)
	fail := &GridError{Query: q, Year: g.Year}
	if q == "" {
		return format.Area{}, fail
	}
	var found []format.Area
	for _, a := range g.Areas {
		if strings.EqualFold(a.Name, q) || a.ISO3 != "" && strings.EqualFold(a.ISO3, q) {
			found = append(found, a)
		}
	}
	if len(found) == 0 {
		p, ok, code := codePlace(q)
		if k := placeKey(q); !code && codeShaped(k) {
			p, ok, code = codePlace(k) // a code written with stops: "U.K.", "E.U."
		}
		if !ok && !code {
			// An area's name in g, accents, case, spaces and punctuation
			// aside: "saudi-arabia", "hong kong".
			key := placeKey(q)
			for _, a := range g.Areas {
				if key != "" && placeKey(a.Name) == key {
					found = append(found, a)
				}
			}
		}
		if len(found) == 0 && !ok {
			p, ok = places()[placeKey(q)]
		}
		if len(found) == 0 && ok {
			found = areasOf(g, p)
			if len(found) == 0 {
				fail.Place = p.String()
				return format.Area{}, fail
			}
		}
		if len(found) == 0 {
			if !code {
				fail.Nearest = Nearest(q, spellingsOf(g), maxSuggestions)
			}
			return format.Area{}, fail
		}
	}
	if len(found) > 1 {
		fail.Matches = found
		return format.Area{}, fail
	}
	return found[0], nil
}

// areasOf returns the areas of g that are p: the country of p's ISO 3
// code, or the region of p's name.
func areasOf(g *format.Grid, p place) []format.Area {
	var out []format.Area
	for _, a := range g.Areas {
		if p.iso3 != "" && a.ISO3 == p.iso3 || p.iso3 == "" && p.region != "" && a.ISO3 == "" && placeKey(a.Name) == placeKey(p.region) {
			out = append(out, a)
		}
	}
	return out
}

// spellingsOf are the names each area of g is suggested by: its name
// (first, the one suggested), its ISO 3 code and its other names.
func spellingsOf(g *format.Grid) [][]string {
	all := make([][]string, len(g.Areas))
	for i, a := range g.Areas {
		s := []string{a.Name, a.ISO3}
		if a.ISO3 != "" {
			if r, ok := emberRenames[a.ISO3]; ok {
				s = append(s, r[:]...)
			}
			s = append(s, countryNames[a.ISO3]...)
		} else {
			s = append(s, regionNames[a.Name]...)
		}
		all[i] = s
	}
	return all
}

// GridError is a grid name that Lookup finds no one area by. Its message
// names the parameter the name was given as (Message), as each surface
// spells it.
type GridError struct {
	// Query is the name as given, spaces around it trimmed.
	Query string
	// Year is the grid's reference year.
	Year int
	// Place, when set, is the place the name is a code or a name of, which
	// the grid has no value for: "France (FRA)".
	Place string
	// Matches, when set, are the areas the name matches, more than one.
	Matches []format.Area
	// Nearest are the names of the grid nearest to an unknown name (never
	// for a code, or a place's name).
	Nearest []string
}

// NotFound reports whether the name names no area of the grid (rather than
// being blank, or matching several).
func (e *GridError) NotFound() bool { return e.Query != "" && len(e.Matches) == 0 }

// Reason says what is wrong with the name, the end of a sentence that
// starts with the parameter and the name: "no value for France (FRA) in
// the 2024 grid".
func (e *GridError) Reason() string {
	switch {
	case e.Query == "":
		return "blank: an ISO 3166 code or an area's name is required"
	case len(e.Matches) > 0:
		names := make([]string, len(e.Matches))
		for i, a := range e.Matches {
			names[i] = fmt.Sprintf("%q (%s)", a.Name, a.ISO3)
		}
		return fmt.Sprintf("matches %d areas of the %d grid: %s", len(e.Matches), e.Year, strings.Join(names, ", "))
	case e.Place != "":
		return fmt.Sprintf("no value for %s in the %d grid", e.Place, e.Year)
	}
	return fmt.Sprintf("no area of that name or code in the %d grid", e.Year)
}

// Message is the error as a surface words it that takes the name as
// param (the API's "grid", the command line's GRID, the MCP tool's
// "grids"): `grid "Germny": no area of that name or code in the 2024
// grid; nearest: "Germany"`.
func (e *GridError) Message(param string) string {
	s := fmt.Sprintf("%s %q: %s", param, e.Query, e.Reason())
	if len(e.Nearest) > 0 {
		s += "; nearest: " + Quoted(e.Nearest, ", ")
	}
	return s
}

func (e *GridError) Error() string { return e.Message("grid") }
