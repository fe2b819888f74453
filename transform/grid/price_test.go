package grid

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNearest: the suggestions for a name that matches nothing, first
// ones (want): a candidate that holds the whole query comes before a
// merely similar one; then the edit distance.
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
		{"llama 3.1 8b", models, []string{`"llama-3-1-8b-instruct"`}},
		{"Llama-3.1", models, []string{`"llama-3-1-8b-instruct"`, `"llama-3-1-70b-instruct"`}},
		{"qwen-3-33b", models, []string{`"qwen-3-32b"`, `"qwen-3-14b"`, `"qwen-3-8b"`}},
		{"Germny", areas, []string{`"Germany"`, `"Norway"`, `"Serbia"`}},
		{"ind", areas, []string{`"India"`}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			got := Nearest(tc.q, tc.cands, 3)
			if len(got) != 3 {
				t.Fatalf("Nearest(%q) = %q, want 3 names", tc.q, got)
			}
			if diff := cmp.Diff(tc.want, got[:len(tc.want)]); diff != "" {
				t.Errorf("Nearest(%q) (-want +got):\n%s", tc.q, diff)
			}
		})
	}
}
