package validate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindDuplicateKeyCaseFold: two keys of one object equal under
// strings.EqualFold are found, the unusual folds included, and keys that
// only look alike lower-cased (the dotted capital I) are not.
func TestFindDuplicateKeyCaseFold(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      *duplicateKey
	}{
		{"exact", `{"a": 1, "a": 2}`, &duplicateKey{key: "a", offset: 9}},
		{"case", `{"a": {"Date": 1, "date": 2}}`, &duplicateKey{where: "a", key: "date", first: "Date", offset: 18}},
		{"long s", `{"ſize": 1, "Size": 2}`, &duplicateKey{key: "Size", first: "ſize", offset: 13}},
		{"kelvin", `{"\u212aey": 1, "key": 2}`, &duplicateKey{key: "key", first: "\u212aey", offset: 16}},
		{"escaped", `{"Key": 1, "\u006bey": 2}`, &duplicateKey{key: "key", first: "Key", offset: 11}},
		{"dotted I aside", `{"İx": 1, "ix": 2, "IX": 3}`, &duplicateKey{key: "IX", first: "ix", offset: 20}},
		{"dotted I alone", `{"ix": 1, "İx": 2}`, nil},
		{"other objects", `{"a": {"k": 1}, "A2": {"K": 1}, "l": [{"k": 1}, {"K": 2}]}`, nil},
		{"the same name and value twice", `{"p": "bf16", "n": 1, "p": "bf16"}`, nil},
		{"the same name, another value", `{"p": "bf16", "p": "fp8"}`, &duplicateKey{key: "p", offset: 14}},
		{"the same value, another spelling", `{"n": 1, "n": 1.0}`, &duplicateKey{key: "n", offset: 9}},
		{"the same value, equal but for case", `{"p": 1, "P": 1}`, &duplicateKey{key: "P", first: "p", offset: 9}},
		{"an object twice", `{"o": {}, "o": {}}`, &duplicateKey{key: "o", offset: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findDuplicateKey([]byte(tc.doc))
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(duplicateKey{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDuplicateKeyCheckRefusesLoneSurrogate: a lone surrogate escape,
// which json.Valid accepts and the key scanner does not, is reported where
// it is, rather than ending the check with the keys after it unchecked.
func TestDuplicateKeyCheckRefusesLoneSurrogate(t *testing.T) {
	doc := `{"a": "\ud800", "b": 1, "b": 2}`
	ps := &problems{file: "x.json"}
	if checkDuplicateKeys(ps, []byte(doc)) || len(ps.list) != 1 || !strings.Contains(ps.list[0].Msg, "line 1, column") {
		t.Errorf("%s: %v; want one problem naming the line and column", doc, ps.list)
	}
}
