package grid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/transform/jsonnum"
	"github.com/leadgreen/greentokens/transform/names"
)

// KgPerBillionTokens is the carbon of a billion output tokens, in kg CO2e,
// for a model that takes whPerM Wh per million output tokens on a grid of
// gPerKWh g CO2e per kWh: whPerM x gPerKWh / 1000, rounded once to one
// decimal, half to even on the exact binary value of the unrounded product.
// (Wh/M x 1000 = Wh/G; / 1000 = kWh/G; x g/kWh = g/G; / 1000 = kg/G.)
// A NaN or infinite input gives a value that jsonnum refuses to print.
func KgPerBillionTokens(whPerM, gPerKWh float64) jsonnum.Float {
	return jsonnum.Round(whPerM*gPerKWh/1000, 1)
}

// maxSuggestions is how many nearest names an unknown area's error offers.
const maxSuggestions = 3

// Lookup finds an area of g by its ISO 3 code, its name or another name
// Ember has given it (KnownNames: "Turkey" finds Türkiye), ignoring case
// and surrounding spaces, and failing that spaces and punctuation too. An
// unknown query is an error naming the nearest names by edit distance; a
// query matching more than one area is an error listing them.
func Lookup(g *Grid, query string) (Area, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return Area{}, fmt.Errorf("grid: empty area query")
	}
	var found []Area
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
		for _, i := range names.Match(q, all) {
			found = append(found, g.Areas[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Area{}, fmt.Errorf("grid: no area %q in the %d grid; nearest: %s", q, g.Year, strings.Join(Nearest(q, all, maxSuggestions), ", "))
	}
	names := make([]string, len(found))
	for i, a := range found {
		names[i] = fmt.Sprintf("%q (%s)", a.Name, a.ISO3)
	}
	return Area{}, fmt.Errorf("grid: %q matches %d areas: %s", q, len(found), strings.Join(names, ", "))
}

// Nearest returns up to n quoted names closest to q. Each candidate is a
// list of spellings, the first its display name; the nearest spelling
// counts. A candidate one of whose spellings holds all of q (case, spaces
// and punctuation aside: "llama 3.1 8b" in "Llama 3.1 8B Instruct") comes
// first; then the edit distance (case folded) orders them, and ties go by
// display name.
func Nearest(q string, candidates [][]string, n int) []string {
	type cand struct {
		name     string
		contains bool
		d        int
	}
	lq, kq := strings.ToLower(q), names.Key(q)
	cands := make([]cand, 0, len(candidates))
	for _, spellings := range candidates {
		if len(spellings) == 0 {
			continue
		}
		c := cand{name: spellings[0], d: -1}
		for _, s := range spellings {
			if s == "" {
				continue
			}
			if e := levenshtein(lq, strings.ToLower(s)); c.d < 0 || e < c.d {
				c.d = e
			}
			c.contains = c.contains || kq != "" && strings.Contains(names.Key(s), kq)
		}
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.contains != b.contains {
			if a.contains {
				return -1
			}
			return 1
		}
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, fmt.Sprintf("%q", c.name))
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b, in runes (case
// counts): what the suggestions for a mistyped name go by.
func EditDistance(a, b string) int { return levenshtein(a, b) }

// levenshtein is the edit distance between a and b, in runes.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	row := make([]int, len(rb)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(rb); j++ {
			cur := row[j]
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(rb)]
}
