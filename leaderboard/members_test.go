package leaderboard

import (
	"testing"
)

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
	rows, err := ParseTask(taskChat, chatFile(x, y))
	if err != nil {
		t.Fatal(err)
	}
	if _, excluded := Stable(rows); len(excluded) != 0 {
		t.Errorf("excluded: %+v", excluded)
	}
}
