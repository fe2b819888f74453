package leaderboard

import (
	"strings"
	"testing"
)

// TestGPUName: a plain GPU name is data; anything else is an error.
func TestGPUName(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"H100", true}, {"B200", true}, {"H200", true}, {"MI300X", true}, {"GB200", true},
		{"RTX PRO 6000", true}, {"A100-SXM4-80GB", true}, {"Gaudi_3", true}, {"v5e.litepod", true},
		{strings.Repeat("A", 40), true},
		{strings.Repeat("A", 41), false},
		{"", false}, {" H100", false}, {"H100 ", false}, {"-H100", false}, {".", false},
		{"H100\n", false}, {"MI300X<script>", false}, {"H100/2", false}, {"H100*", false}, {"Ｈ100", false},
	} {
		if got := GPUName(tt.name); got != tt.ok {
			t.Errorf("GPUName(%q) = %v, want %v", tt.name, got, tt.ok)
		}
	}
}
