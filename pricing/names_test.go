package pricing

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNearest: the suggestions for a name that matches nothing: a
// candidate that holds the whole query comes before a merely similar one;
// then the edit distance. A name far from every candidate, or too long to
// be a typo, gets none.
func TestNearest(t *testing.T) {
	models := [][]string{
		{"gemma-3-12b", "Gemma 3 12B", "google/gemma-3-12b-it"},
		{"llama-3-1-8b-instruct", "Llama 3.1 8B Instruct", "meta-llama/Llama-3.1-8B-Instruct"},
		{"llama-3-1-70b-instruct", "Llama 3.1 70B Instruct", "meta-llama/Llama-3.1-70B-Instruct"},
		{"qwen-3-8b", "Qwen 3 8B", "Qwen/Qwen3-8B"},
		{"qwen-3-14b", "Qwen 3 14B", "Qwen/Qwen3-14B"},
		{"qwen-3-32b", "Qwen 3 32B", "Qwen/Qwen3-32B"},
	}
	areas := [][]string{{"Germany", "DEU"}, {"Norway", "NOR"}, {"Serbia", "SRB"}, {"India", "IND"}}
	for _, tc := range []struct {
		q     string
		cands [][]string
		want  []string
	}{
		{"llama 3.1 8b", models, []string{"llama-3-1-8b-instruct"}},
		{"Llama-3.1", models, []string{"llama-3-1-8b-instruct", "llama-3-1-70b-instruct"}},
		{"qwen-3-33b", models, []string{"qwen-3-32b", "qwen-3-14b", "qwen-3-8b"}},
		{"Germny", areas, []string{"Germany"}},
		{"ind", areas, []string{"India"}},
		{"gpt-4", models, nil},
		{"Norwegian", areas, nil},
		{strings.Repeat("qwen-3-32b", 7), append(models, []string{strings.Repeat("qwen-3-32b", 7)}), nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			got := Nearest(tc.q, tc.cands, 3)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Nearest(%q) (-want +got):\n%s", tc.q, diff)
			}
		})
	}
}

func TestMatchNames(t *testing.T) {
	models := [][]string{
		{"qwen-3-32b", "Qwen 3 32B", "Qwen/Qwen3-32B"},
		{"qwen-3-14b", "Qwen 3 14B", "Qwen/Qwen3-14B"},
		{"saudi-arabia", "Saudi Arabia", "SAU"},
	}
	for _, tc := range []struct {
		query string
		want  []int
	}{
		{"qwen3 32b", []int{0}},
		{"Qwen/Qwen3-32B", []int{0}},
		{"qwen-3-32b", []int{0}},
		{"QWEN_3_32B", []int{0}},
		{"qwen 3 14b", []int{1}},
		{"saudi-arabia", []int{2}},
		{"sau", []int{2}},
		{"qwen3", nil},
		{" -/ ", nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, MatchNames(tc.query, models)); diff != "" {
				t.Errorf("MatchNames(%q) (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}
