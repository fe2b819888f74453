package pricing

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NameKey reduces a name for matching: lower case, letters and digits only
// (case, spaces and punctuation do not count). "Qwen/Qwen3-32B" gives
// "qwenqwen332b", "Saudi Arabia" "saudiarabia".
func NameKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// MatchNames returns the indexes of the candidates one of whose spellings has
// query's NameKey; an empty key matches nothing.
func MatchNames(query string, candidates [][]string) []int {
	q := NameKey(query)
	if q == "" {
		return nil
	}
	var out []int
	for i, spellings := range candidates {
		for _, s := range spellings {
			if NameKey(s) == q {
				out = append(out, i)
				break
			}
		}
	}
	return out
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

// Nearest returns up to n names near q. Each candidate is a list of
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
	lq, kq := strings.ToLower(q), NameKey(q)
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
			c.contains = c.contains || kq != "" && strings.Contains(NameKey(s), kq)
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
		out = append(out, c.name)
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

// Quoted is names, each quoted as Go quotes a string, joined by sep:
// `"qwen-3-32b" or "qwen-3-14b"`.
func Quoted(names []string, sep string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, sep)
}
