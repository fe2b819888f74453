package diff

import (
	"strings"
	"testing"
)

// TestWriteTextEscapesData: a value from upstream that holds a newline or a
// control character is shown escaped, on its own line, and cannot forge a
// line of the report.
func TestWriteTextEscapesData(t *testing.T) {
	r := &Report{
		Summary:  "1 model, no data change",
		Upstream: []ValueChange{{Name: "leaderboard version", Old: "v1", New: "v2\nModels: 9 -> 0\x1b[2J", Changed: true}},
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Contains(text, "\nModels: 9 -> 0") || strings.ContainsRune(text, '\x1b') {
		t.Errorf("a value's newline or escape reached the report:\n%s", text)
	}
	if want := `  leaderboard version: v1 -> v2\nModels: 9 -> 0\x1b[2J` + "\n"; !strings.Contains(text, want) {
		t.Errorf("report does not show the value escaped on one line %q:\n%s", want, text)
	}
}
