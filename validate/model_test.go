package validate

import (
	"strings"
	"testing"
)

// TestFill: every placeholder takes its value, a value given for no
// placeholder is no error, and a placeholder without a value is.
func TestFill(t *testing.T) {
	got, err := fill("{count} runs, {count} kept; compiled {compiled}", map[string]string{"count": "12", "compiled": "2026-02-16", "unused": "x"})
	if want := "12 runs, 12 kept; compiled 2026-02-16"; err != nil || got != want {
		t.Errorf("fill = %q, %v; want %q", got, err, want)
	}
	for _, tmpl := range []string{"{count} and {released}", "{count", "count}"} {
		if got, err := fill(tmpl, map[string]string{"count": "12"}); err == nil || !strings.Contains(err.Error(), "without a value") {
			t.Errorf("fill(%q) = %q, %v; want an error", tmpl, got, err)
		}
	}
}
