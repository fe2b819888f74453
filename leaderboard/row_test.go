package leaderboard

import "testing"

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Qwen 3 32B", "qwen-3-32b"},
		{"Llama 3.1 405B Instruct FP8", "llama-3-1-405b-instruct-fp8"},
		{"PixArt-Σ", "pixart"},
		{"  --Gemma__3 27B--  ", "gemma-3-27b"},
		{"../x", "x"},
		{"/", ""},
		{"", ""},
		{"A/B\\C", "a-b-c"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := Slug(tc.in); got != tc.want {
				t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
