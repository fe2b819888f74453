package transform

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckDuplicateKeysCaseFold(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"exact", `{"a": 1, "a": 2}`, `duplicate key "a" at line 1, column 10`},
		{"case", `{"a": {"Date": 1, "date": 2}}`, `a: duplicate key "date" (also given as "Date") at line 1, column 19`},
		{"long s", `{"ſize": 1, "Size": 2}`, `duplicate key "Size" (also given as "ſize")`},
		{"kelvin", `{"\u212aey": 1, "key": 2}`, `duplicate key "key" (also given as "` + "\u212a" + `ey")`},
		{"escaped", `{"Key": 1, "\u006bey": 2}`, `duplicate key "key" (also given as "Key")`},
		{"other objects", `{"a": {"k": 1}, "A2": {"K": 1}, "l": [{"k": 1}, {"K": 2}]}`, ""},
		{"distinct", `{"ab": 1, "a_b": 2, "AB ": 3}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkDuplicateKeys([]byte(tc.doc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("got %v, want no error", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error holding %q", err, tc.want)
			}
		})
	}
}

// TestPlainDistinctNames: the quick scan passes only what the full check
// passes, and leaves to it every document it cannot judge plainly.
func TestPlainDistinctNames(t *testing.T) {
	many := func(n int, last string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"k%d": %d, `, i, i)
		}
		return b.String() + `"` + last + `": 0}`
	}
	for _, tc := range []struct {
		name, doc string
		plain     bool // the scan passes it
	}{
		{"distinct", `{"ab": 1, "a_b": 2, "AB ": 3, "l": [{"k": 1}, {"K": 2}], "o": {"k": {"k": 1}}}`, true},
		{"exact", `{"a": 1, "a": 2}`, false},
		{"case", `{"a": {"Date": 1, "date": 2}}`, false},
		{"the same name in another object", `{"a": {"k": 1}, "k": [{"k": 1}], "K2": {"K": "k"}}`, true},
		{"a name that is a value elsewhere", `{"a": "b", "b": ["a", "a"]}`, true},
		{"a name after a nested object", `{"a": {"b": {"c": 1}}, "b": 2, "A": 3}`, false},
		{"an escaped name", `{"Key": 1, "k\"y": 2}`, false},
		{"a \\u escape in a name", `{"Key": 1, "\u006bey": 2}`, false},
		{"a \\u escape in a value", `{"a": "\ud800"}`, false},
		{"other escapes in a value", `{"a": "x\"y\\z\n", "b": "\\"}`, true},
		{"a name not ASCII", `{"ſize": 1, "Size": 2}`, false},
		{"a value not ASCII", `{"a": "été"}`, true},
		{"as many names as compared", many(maxPlainNames-1, "z"), true},
		{"more names than compared", many(maxPlainNames, "z"), false},
		{"a top-level list", `[{"a": 1}, {"a": 2}]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !json.Valid([]byte(tc.doc)) {
				t.Fatalf("not valid JSON: %s", tc.doc)
			}
			if got := plainDistinctNames([]byte(tc.doc)); got != tc.plain {
				t.Errorf("plainDistinctNames: %v, want %v", got, tc.plain)
			}
			if tc.plain && checkDuplicateKeys([]byte(tc.doc)) != nil {
				t.Errorf("passed, but checkDuplicateKeys refuses it")
			}
		})
	}
}

// FuzzPlainDistinctNames: whatever valid UTF-8 JSON the quick scan
// passes, the full check passes too.
func FuzzPlainDistinctNames(f *testing.F) {
	for _, s := range []string{`{"a": 1, "A": 2}`, `{"a": {"b": 1}, "b": [{"b": 1}, {"B": 2}]}`, `{"a": "\ud800"}`, `[{"x": "{\"x\": 1}"}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if !utf8.ValidString(doc) || !json.Valid([]byte(doc)) {
			return
		}
		if plainDistinctNames([]byte(doc)) {
			if err := checkDuplicateKeys([]byte(doc)); err != nil {
				t.Fatalf("%s passes the quick scan, and checkDuplicateKeys says %v", doc, err)
			}
		}
	})
}

// FuzzPlainDistinctNamesBounded: on any bytes, valid JSON or not,
// plainDistinctNames returns without a panic (ParseTask asks it only of
// valid JSON).
func FuzzPlainDistinctNamesBounded(f *testing.F) {
	for _, s := range []string{`{"a`, `"`, `{"a": "b`, `}}`, `{"a":1,"a`, `[{"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		plainDistinctNames([]byte(doc))
	})
}
