package sourcetext

import (
	"strings"
	"testing"
)

// TestLoad: the embedded text loads, and each call returns a copy of its
// own.
func TestLoad(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if a.Ember.Name != "Ember" || a.Tasks["lm-arena-chat"].Name != "Text Conversation" {
		t.Errorf("Load: Ember %q, lm-arena-chat %+v", a.Ember.Name, a.Tasks["lm-arena-chat"])
	}
	a.Leaderboard.LicenceEvidence[0] = "changed"
	a.Tasks["gpqa"] = Task{Name: "changed"}
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if b.Leaderboard.LicenceEvidence[0] == "changed" || b.Tasks["gpqa"].Name == "changed" {
		t.Error("a change to one Load's text shows in the next one's")
	}
}

// TestDecodeRefuses: a key of no field, a field without its key, and an
// empty value anywhere are each refused, naming the key.
func TestDecodeRefuses(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type doc struct {
		Title string           `json:"title"`
		List  []string         `json:"list"`
		Tasks map[string]inner `json:"tasks"`
	}
	for _, tc := range []struct{ data, want string }{
		{`{"title": "t", "list": ["a"], "tasks": {"x": {"name": "n"}}, "titel": "t"}`, `unknown field "titel"`},
		{`{"list": ["a"], "tasks": {"x": {"name": "n"}}}`, `"title" is empty`},
		{`{"title": "", "list": ["a"], "tasks": {"x": {"name": "n"}}}`, `"title" is empty`},
		{`{"title": "t", "list": [], "tasks": {"x": {"name": "n"}}}`, `"list" is empty`},
		{`{"title": "t", "list": [""], "tasks": {"x": {"name": "n"}}}`, `"list" is empty`},
		{`{"title": "t", "list": ["a"], "tasks": {"x": {"name": null}}}`, `"tasks.x.name" is empty`},
		{`{"title": "t", "list": ["a"], "tasks": {"x": {}}}`, `"tasks.x" is empty`},
		{`{"title": "t", "list": ["a"], "tasks": {"x": {"name": "n", "unit": "u"}}}`, `unknown field "unit"`},
	} {
		var d doc
		err := decode([]byte(tc.data), &d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("decode(%s): %v, want an error saying %s", tc.data, err, tc.want)
		}
	}
	var d doc
	if err := decode([]byte(`{"_comment": "c", "title": "t", "list": ["a"], "tasks": {"x": {"name": "n"}}}`), &d); err != nil {
		t.Errorf("a good file with a comment: %v", err)
	}
}

func TestFill(t *testing.T) {
	got, err := Fill("{a} and {b}", map[string]string{"a": "1", "b": "2"})
	if err != nil || got != "1 and 2" {
		t.Errorf("Fill: %q, %v", got, err)
	}
	for _, tmpl := range []string{"{a} and {c}", "{a"} {
		if _, err := Fill(tmpl, map[string]string{"a": "1"}); err == nil {
			t.Errorf("Fill(%q): no error", tmpl)
		}
	}
}
