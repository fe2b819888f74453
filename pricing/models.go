package pricing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// FindModel finds a model by slug, name or model id, ignoring case, spaces
// and punctuation: "qwen3 32b", "Qwen/Qwen3-32B" and "qwen-3-32b" find the
// same model. An unknown query is an error naming the nearest models.
func FindModel(models []*format.Model, query string) (*format.Model, error) {
	cands := make([][]string, len(models))
	for i, m := range models {
		cands[i] = []string{m.Slug, m.Name, m.ModelID}
	}
	i, err := FindName(query, cands)
	if err != nil {
		return nil, err
	}
	return models[i], nil
}

// FindName finds a model among candidates, each the spellings of one
// model (slug first, then name and model id), as FindModel does, and
// returns its index.
func FindName(query string, candidates [][]string) (int, error) {
	q := strings.TrimSpace(query)
	for i, spellings := range candidates {
		for _, s := range spellings {
			if s != "" && strings.EqualFold(s, q) {
				return i, nil
			}
		}
	}
	switch found := MatchNames(q, candidates); len(found) {
	case 1:
		return found[0], nil
	case 0:
		if near := Nearest(q, candidates, maxSuggestions); len(near) > 0 {
			return -1, fmt.Errorf("no model %q; did you mean %s?", q, Quoted(near, " or "))
		}
		return -1, fmt.Errorf("no model %q", q)
	default:
		var slugs []string
		for _, i := range found {
			slugs = append(slugs, strconv.Quote(candidates[i][0]))
		}
		return -1, fmt.Errorf("%q matches %d models: %s", q, len(found), strings.Join(slugs, ", "))
	}
}
