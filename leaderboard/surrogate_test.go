package leaderboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/internal/sample"
)

// TestParseTaskLoneSurrogate: a task file that json.Valid accepts but
// jsontext refuses (a lone surrogate escape, "\ud800") is refused with the
// line and column, wherever the escape is (a top-level name or value, a
// row), and a duplicate key after it is still not let through. (The one-pass
// reader once spun for ever on such a file.)
func TestParseTaskLoneSurrogate(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(sample.Leaderboard(), "tasks", "gpqa.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for name, data := range map[string]string{
		"top-level value": strings.Replace(doc, "{", `{"note": "\ud800",`, 1),
		"top-level name":  strings.Replace(doc, "{", `{"\ud800": 1,`, 1),
		"in a row":        strings.Replace(doc, `"model_id": `, `"note": "x\udc00y", "model_id": `, 1),
		"then a duplicate key": strings.Replace(strings.Replace(doc, "{", `{"note": "\ud800",`, 1),
			`"model_id": `, `"model_id": "a/b", "model_id": `, 1),
	} {
		t.Run(name, func(t *testing.T) {
			if data == doc {
				t.Fatal("the edit changed nothing")
			}
			done := make(chan error, 1)
			go func() { _, err := ParseTask(taskProblem, []byte(data)); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "line ") || !strings.Contains(err.Error(), "column ") {
					t.Errorf("ParseTask: %v; want an error naming the line and column", err)
				}
			case <-time.After(30 * time.Second): // a guard against a hang, not a measure
				t.Fatal("ParseTask did not return")
			}
		})
	}
}

// TestDuplicateKeysAfterLoneSurrogate: the duplicate-key check does not
// stop, and pass, at a lone surrogate escape that json.Valid accepts.
func TestDuplicateKeysAfterLoneSurrogate(t *testing.T) {
	for _, doc := range []string{
		`{"a": "\ud800", "b": 1, "b": 2}`,
		`{"a": "\ud800", "b": {"c": 1, "C": 2}}`,
	} {
		if err := checkDuplicateKeys([]byte(doc)); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}
