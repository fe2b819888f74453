package leaderboard

import (
	"strings"
	"testing"
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
		{"the same name and value twice", `{"p": "bfloat16", "n": 1, "p": "bfloat16"}`, ""},
		{"the same name, another value", `{"p": "bfloat16", "p": "fp8"}`, `duplicate key "p" at line 1, column 19`},
		{"the same value, another spelling", `{"n": 1, "n": 1.0}`, `duplicate key "n"`},
		{"the same value, equal but for case", `{"p": 1, "P": 1}`, `duplicate key "P" (also given as "p")`},
		{"an object twice", `{"o": {}, "o": {}}`, `duplicate key "o"`},
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
