package transform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestObjectMembersMatchesUnmarshal: objectMembers gives what
// json.Unmarshal into a map[string]json.RawMessage gives, byte for byte,
// for every row of every task file of the shared leaderboard versions and
// for objects written to be awkward (escaped names, nesting, white space,
// a name given twice), and refuses what is not an object.
func TestObjectMembersMatchesUnmarshal(t *testing.T) {
	var objects [][]byte
	files, err := filepath.Glob(filepath.Join(shared, "upstream", "leaderboard", "*", "tasks", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shared task files: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Configurations []json.RawMessage }
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc.Configurations {
			objects = append(objects, c)
		}
	}
	objects = append(objects,
		[]byte(`{}`),
		[]byte(` { "a" : 1 , "b\u0041" : "x\"y" , "c" : { "d" : [ 1 , { } , "}" ] } , "e" : null } `),
		[]byte(`{"\u00e9t\u00e9": -1.5e3, "é": true}`),
		[]byte(`{"a": 1, "a": 2}`),
	)
	for i, raw := range objects {
		var want map[string]json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := objectMembers(raw)
		if !ok {
			t.Fatalf("object %d not split: %s", i, raw)
		}
		if !sameMembers(want, got) {
			t.Fatalf("object %d (-Unmarshal +objectMembers):\n%s\n%s", i, cmp.Diff(want, got), raw)
		}
	}
	if len(objects) < 1000 {
		t.Errorf("only %d objects compared", len(objects))
	}
	for _, raw := range []string{`[]`, `null`, `"x"`, `1`, `[{"a": 1}]`} {
		if m, ok := objectMembers([]byte(raw)); ok {
			t.Errorf("%s split as an object: %v", raw, m)
		}
	}
}

func sameMembers(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}
