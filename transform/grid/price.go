package grid

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/transform/names"
)

// KgPerBillionTokens is the carbon of a billion output tokens, in kg CO2e,
// for a model that takes whPerM Wh per million output tokens on a grid of
// gPerKWh g CO2e per kWh: whPerM x gPerKWh / 1000, rounded once to one
// decimal, half to even on the exact binary value of the unrounded product.
// (Wh/M x 1000 = Wh/G; / 1000 = kWh/G; x g/kWh = g/G; / 1000 = kg/G.)
// A NaN or infinite input gives a value that format.Float refuses to print.
func KgPerBillionTokens(whPerM, gPerKWh float64) format.Float {
	return format.Round(whPerM*gPerKWh/1000, 1)
}

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
		for _, i := range names.Match(q, all) {
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

// Limits of the suggestions for a mistyped name.
const (
	// MaxSuggestRunes is the longest query that gets suggestions: a longer
	// one is no typo of a name, and comparing it costs in proportion.
	MaxSuggestRunes = 64
	// A suggestion is at most max(1, len(q)/NearDivisor) edits from the
	// query (in runes), or holds all of it: "gpt-4" gets none.
	NearDivisor = 3
)

// Nearest returns up to n quoted names near q. Each candidate is a list of
// spellings, the first its display name; the nearest spelling counts. A
// candidate one of whose spellings holds all of q (case, spaces and
// punctuation aside: "llama 3.1 8b" in "Llama 3.1 8B Instruct") comes
// first; then the edit distance (case folded) orders them, and ties go by
// display name. A candidate further than max(1, len(q)/NearDivisor) edits
// that does not hold q is no suggestion, and a query over MaxSuggestRunes
// runes gets none: the work is bounded whatever the query.
func Nearest(q string, candidates [][]string, n int) []string {
	type cand struct {
		name     string
		contains bool
		d        int
	}
	rq := utf8.RuneCountInString(q)
	if rq > MaxSuggestRunes {
		return nil
	}
	limit := max(1, rq/NearDivisor)
	lq, kq := strings.ToLower(q), names.Key(q)
	cands := make([]cand, 0, len(candidates))
	for _, spellings := range candidates {
		if len(spellings) == 0 {
			continue
		}
		c := cand{name: spellings[0], d: limit + 1}
		for _, s := range spellings {
			if s == "" {
				continue
			}
			c.d = min(c.d, boundedLevenshtein(lq, strings.ToLower(s), limit))
			c.contains = c.contains || kq != "" && strings.Contains(names.Key(s), kq)
		}
		if c.contains {
			// Few hold the whole query: their exact distance orders them.
			c.d = -1
			for _, s := range spellings {
				if d := levenshtein(lq, strings.ToLower(s)); s != "" && (c.d < 0 || d < c.d) {
					c.d = d
				}
			}
		}
		if c.contains || c.d <= limit {
			cands = append(cands, c)
		}
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

// boundedLevenshtein is levenshtein(a, b) when it is at most limit, and
// limit+1 otherwise: names whose lengths alone differ by more than limit
// are not compared.
func boundedLevenshtein(a, b string, limit int) int {
	if d := utf8.RuneCountInString(a) - utf8.RuneCountInString(b); d > limit || -d > limit {
		return limit + 1
	}
	return min(levenshtein(a, b), limit+1)
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
