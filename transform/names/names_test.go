package names

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatch(t *testing.T) {
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
			if diff := cmp.Diff(tc.want, Match(tc.query, models)); diff != "" {
				t.Errorf("Match(%q) (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}
