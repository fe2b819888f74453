package transform

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/internal/sample"
)

// TestObjectMembersMatchesUnmarshal: objectMembers gives what
// json.Unmarshal into a map[string]json.RawMessage gives, byte for byte,
// for every row of every task file of the leaderboard versions (the
// sample's in make test, the eight of ../shared in make scale) and
// for objects written to be awkward (escaped names, nesting, white space,
// a name given twice), and refuses what is not an object.
func TestObjectMembersMatchesUnmarshal(t *testing.T) {
	var objects [][]byte
	dirs, _ := sample.Versions(t)
	var files []string
	for _, d := range dirs {
		f, err := filepath.Glob(filepath.Join(d, "tasks", "*.json"))
		if err != nil || len(f) == 0 {
			t.Fatalf("no task files in %s: %v", d, err)
		}
		files = append(files, f...)
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
	if len(objects) < 500 {
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

// FuzzObjectMembers: on what readRows hands it (a value jsontext read,
// names given twice allowed), objectMembers gives what json.Unmarshal
// gives.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{`{"a": 1, "b": [1, {"c": "]"}], "d": "x\"}"}`, `{"\u0061": 1, "a": 2}`, ` { } `, `{"a":{"b":{}},"c":[[]]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if !jsontext.Value(doc).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		var want map[string]json.RawMessage
		wantOK := json.Unmarshal([]byte(doc), &want) == nil && want != nil
		got, ok := objectMembers([]byte(doc))
		if ok != wantOK || ok && !sameMembers(want, got) {
			t.Fatalf("%s: objectMembers %v %v, json.Unmarshal %v %v", doc, got, ok, want, wantOK)
		}
	})
}

// TestContentKey: rows have the same content key exactly when their
// fields are equal, whatever their order, white space, or spelling of
// numbers and strings.
func TestContentKey(t *testing.T) {
	key := func(row string) rowContent {
		m, ok := objectMembers([]byte(row))
		if !ok {
			t.Fatalf("not an object: %s", row)
		}
		return contentKey(m)
	}
	base := key(`{"a": 1.5, "b": "x", "c": null, "d": true, "e": {"f": [1, 2]}}`)
	for _, tc := range []struct {
		row  string
		same bool
	}{
		{`{"e": {"f": [1, 2]}, "d": true, "c": null, "b": "x", "a": 1.5}`, true},
		{`{ "a" : 15e-1 , "b" : "\u0078" , "c" : null , "d" : true , "e" : { "f" : [ 1 , 2 ] } }`, true},
		{`{"a": 1.50000000000000001, "b": "x", "c": null, "d": true, "e": {"f": [1.0, 2]}}`, true},
		{`{"a": 1.5000000000000002, "b": "x", "c": null, "d": true, "e": {"f": [1, 2]}}`, false},
		{`{"a": "1.5", "b": "x", "c": null, "d": true, "e": {"f": [1, 2]}}`, false},
		{`{"a": 1.5, "b": "x", "c": 0, "d": true, "e": {"f": [1, 2]}}`, false},
		{`{"a": 1.5, "b": "x", "c": null, "d": true, "e": {"f": [2, 1]}}`, false},
		{`{"a": 1.5, "b": "x", "c": null, "d": true}`, false},
		{`{"a": 1.5, "b": "x", "c": null, "d": true, "e": {"f": [1, 2]}, "g": null}`, false},
		{`{"a": 1.5, "bx": "", "c": null, "d": true, "e": {"f": [1, 2]}}`, false},
		{`{"a": 1.5, "bb": "x", "c": null, "d": true, "e": {"f": [1, 2]}}`, false},
	} {
		if got := key(tc.row) == base; got != tc.same {
			t.Errorf("%s: same key %v, want %v", tc.row, got, tc.same)
		}
	}
	// A number out of float64's range, written as it is, must not run into
	// the next key's length.
	if key(`{"A": 1e400, "BC1000000000": 1e400}`) == key(`{"A": 1e4001, "BC": 10000000001e400}`) {
		t.Errorf("rows that differ in an out-of-range number and a name have the same key")
	}
	if key(`{"x": 1}`) == key(`{"y": 1}`) {
		t.Errorf("rows that differ in a name have the same key")
	}
	if key(`{"a": 0}`) == key(`{"a": -0}`) {
		t.Errorf("0 and -0 have the same key") // as their shortest forms differ
	}
}

// TestStableKeepsRowsWithOutOfRangeNumbers: two rows that differ only in
// extra fields holding numbers out of float64's range are not exact
// duplicates (through ParseTask and Stable).
func TestStableKeepsRowsWithOutOfRangeNumbers(t *testing.T) {
	r0 := goodRow()
	x := `{"A": 1e400, "BC1000000000": 1e400, ` + r0[1:]
	y := `{"A": 1e4001, "BC": 10000000001e400, ` + r0[1:]
	rows, err := ParseTask(TaskChat, chatFile(x, y))
	if err != nil {
		t.Fatal(err)
	}
	if _, excluded := Stable(rows); len(excluded) != 0 {
		t.Errorf("excluded: %+v", excluded)
	}
}

// FuzzObjectMembersBounded: on any bytes, valid JSON or not, objectMembers
// returns without a panic (what it returns is defined only for valid JSON).
func FuzzObjectMembersBounded(f *testing.F) {
	for _, s := range []string{`{"a`, `{"`, `{"a": "b`, `{"a": [1, {"b": `, `{"a" 1}`, `{`, `{"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		objectMembers([]byte(doc))
	})
}
