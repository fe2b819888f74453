// Package names matches what a person types against the names of models
// and grids: "qwen3 32b", "Qwen/Qwen3-32B" and "qwen-3-32b" are one name.
package names

import (
	"strings"
	"unicode"
)

// Key reduces a name for matching: lower case, letters and digits only
// (case, spaces and punctuation do not count). "Qwen/Qwen3-32B" gives
// "qwenqwen332b", "Saudi Arabia" "saudiarabia".
func Key(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Match returns the indexes of the candidates one of whose spellings has
// query's Key; an empty key matches nothing.
func Match(query string, candidates [][]string) []int {
	q := Key(query)
	if q == "" {
		return nil
	}
	var out []int
	for i, spellings := range candidates {
		for _, s := range spellings {
			if Key(s) == q {
				out = append(out, i)
				break
			}
		}
	}
	return out
}
